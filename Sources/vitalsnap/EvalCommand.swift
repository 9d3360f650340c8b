import ArgumentParser
import Foundation
import VitalSnapOCR

extension MatchRule: ExpressibleByArgument {}

struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure accuracy on folders of labelled photos (labels.tsv).",
        discussion: """
            Reads DIR/labels.tsv, reads every image it lists and prints how many were read correctly, \
            wrongly, or not at all, then the wrong and unreadable ones. When DIR has no labels.tsv, every folder below it \
            that has one is evaluated (recursively): one summary line per folder, then the total.

            labels.tsv is tab-separated with a header line. Columns: file, reading, match (exact, integer or \
            digits; default exact), and optionally peripheral and unit (others, such as device, source and \
            notes, are ignored). Several values are joined with / (blood pressure: SYS/DIA/PULSE). A reading \
            of `?` means no value may be read (digits hidden); `LO`, `HI` or `Err` means the display shows \
            that word; a word read where the label has a value counts as wrong. exact compares the values with leading zeros dropped; integer compares the reading \
            rounded half-up (33.01 and 32.5 match 33); digits compares the digit strings; litres takes a \
            reading within one of the label (62.67 and 63.9 match 63), for labels that truncate, round or add one. \
            --match compares every row by one rule instead of its match column.

            Each row is read for --peripheral and --unit when given (they override the columns), else for \
            its own peripheral and unit columns; a row with neither is an error asking for --peripheral.

            Exit status: 0 when every listed image could be read (whatever the verdicts), 1 when any could \
            not (missing or corrupt files) or the labels are unusable, 64 for a usage error.

            Examples:
              vitalsnap eval Samples/stills
              vitalsnap eval Samples/stills/glucose-g2-mmol --json
              vitalsnap eval ../shared/data/photos/glucose-morepen --peripheral 9 --verbose
              vitalsnap eval ../shared/data/photos/fuel-pump --match litres
            """
    )

    @Argument(help: ArgumentHelp("Folder holding labels.tsv and the images, or a folder above such folders.", valueName: "dir"))
    var folder: String
    @Option(name: .shortAndLong, help: ArgumentHelp("OCR peripheral id for every row (default: each row's peripheral column).", valueName: "id"))
    var peripheral: Int?
    @Option(help: ArgumentHelp(
        "Unit for every row (default: each row's unit column): mg/dL or mmol, C or F, kg or lb.", valueName: "unit"))
    var unit: String?
    @OptionGroup var catalogOption: CatalogOption
    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var logging: LogOptions
    @Option(name: .shortAndLong, help: ArgumentHelp("Photos read at once (default: all cores).", valueName: "n"))
    var jobs: Int?
    @Option(help: ArgumentHelp(
        "Only the photos of this half of Training/split.tsv: held (never trained on), train, or all. Folders the manifest does not list are read whole.",
        valueName: "held|train|all"))
    var split: SplitChoice = .all
    @Option(help: ArgumentHelp("The split manifest (default: Training/split.tsv in the current folder).", valueName: "file"))
    var splitFile = "Training/split.tsv"
    @Option(help: ArgumentHelp(
        "Compare every row by this rule instead of its match column (litres: within one of the label).",
        valueName: "rule"))
    var match: MatchRule?
    @Flag(help: "Print a JSON summary (per folder and in total) instead of text.") var json = false

    enum SplitChoice: String, ExpressibleByArgument, CaseIterable {
        case held, train, all
    }
    @Flag(name: .shortAndLong, help: "List every image, not only the wrong and unreadable ones.") var verbose = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let peripheral {
            let catalog = try catalogOption.catalog()
            do {
                _ = try ReaderSetting.resolve(peripheral: peripheral, unit: unit, catalog: catalog)
            } catch {
                throw ValidationError(String(describing: error))
            }
        }
    }

    func run() throws {
        logging.bootstrap()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("no such folder: \(folder)")
        }
        let folders = Evaluation.labelledFolders(under: folder)
        if folders.isEmpty { throw CommandFailure("no labels.tsv in \(folder) or in any folder below it") }
        let catalog = try catalogOption.catalog()
        let manifest: SplitManifest?
        do {
            manifest = split == .all ? nil : try SplitManifest.load(splitFile)
        } catch {
            throw CommandFailure("\(error) (--split needs the manifest: run from the repository root or pass --split-file)")
        }
        var tasks: [Evaluation.Task] = []
        for dir in folders {
            let path = (dir as NSString).appendingPathComponent("labels.tsv")
            var labels: LabelFile
            do {
                labels = try LabelFile.load(path)
            } catch {
                throw CommandFailure(String(describing: error))
            }
            if let manifest, let half = SplitManifest.Half(rawValue: split.rawValue) {
                labels = manifest.labels(labels, in: dir, half: half)
            }
            if let match { labels = labels.comparing(by: match) }
            do {
                let settings = try Evaluation.settings(
                    for: labels, labelsPath: path, catalog: catalog, peripheral: peripheral, unit: unit)
                tasks.append(Evaluation.Task(folder: dir, labels: labels, settings: settings))
            } catch EvaluationError.noPeripheral(let path, let file) {
                // A usage error, reported with this command's usage (a ValidationError thrown from `run` would
                // show the root command's).
                printError("""
                    Error: \(path) names no peripheral for \(file): pass --peripheral ID (see `vitalsnap peripherals`)
                    Usage: vitalsnap \(Self.usageString())
                      See 'vitalsnap eval --help' for more information.
                    """)
                throw ExitCode.validationFailure
            } catch {
                throw CommandFailure(String(describing: error))
            }
        }
        let imageCount = tasks.reduce(0) { $0 + $1.labels.labels.count }
        var progress = ProgressBar(total: imageCount, label: "evaluating")
        let reader = try readerOptions.choice()
        let evaluations = Evaluation.run(
            tasks, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, reader: reader
        ) { done, _ in
            progress.update(done)
        }
        progress.clear()
        let single = folders == [folder]
        if json {
            print(summaryJSON(evaluations, tasks: tasks, readerName: reader.kind.rawValue).render(pretty: true))
        } else {
            print("reader: \(reader.kind.rawValue)" + (split == .all ? "" : ", \(split.rawValue) half of \(splitFile) where it splits a folder")
                + (match.map { ", every row compared by the \($0.rawValue) rule" } ?? ""))
            if single, let evaluation = evaluations.first {
                printSingle(evaluation, task: tasks[0])
            } else {
                printMany(evaluations)
            }
        }
        let errors = evaluations.reduce(0) { $0 + $1.count(.error) }
        if errors > 0 {
            fflush(nil)
            printError("vitalsnap: \(errors) of \(imageCount) labelled image\(imageCount == 1 ? "" : "s") could not be read")
            throw ExitCode(1)
        }
    }

    // MARK: Text

    static func percent(_ n: Int, of total: Int) -> String {
        total == 0 ? "-" : String(format: "%.1f%%", 100 * Double(n) / Double(total))
    }

    /// `101`, `101, 102`, or `9 (mmol/L)` when the command line set one peripheral and unit.
    func peripheralText(_ evaluation: Evaluation, task: Evaluation.Task) -> String {
        let ids = Set(task.settings.map(\.peripheral.id)).sorted().map(String.init).joined(separator: ", ")
        let units = Set(task.settings.compactMap(\.unit)).sorted()
        return ids + (units.isEmpty ? "" : " (\(units.joined(separator: ", ")))")
    }

    func printSingle(_ evaluation: Evaluation, task: Evaluation.Task) {
        let c = evaluation.counts
        print("\(evaluation.folder): \(c.total) image\(c.total == 1 ? "" : "s"), peripheral \(peripheralText(evaluation, task: task))")
        var rows = [
            ["  correct", String(c.correct), Self.percent(c.correct, of: c.total)],
            ["  wrong", String(c.wrong), Self.percent(c.wrong, of: c.total)],
            ["  no reading", String(c.noReading), Self.percent(c.noReading, of: c.total)],
        ]
        if c.errors > 0 { rows.append(["  unreadable", String(c.errors), Self.percent(c.errors, of: c.total)]) }
        print(TextTable.render(rows))
        printItems([("", evaluation)])
    }

    func printMany(_ evaluations: [Evaluation]) {
        var rows = [["FOLDER", "IMAGES", "CORRECT", "WRONG", "NO READING", "UNREADABLE", "ACCURACY"]]
        func row(_ name: String, _ c: Evaluation.Counts) -> [String] {
            [name, String(c.total), String(c.correct), String(c.wrong), String(c.noReading), String(c.errors),
             Self.percent(c.correct, of: c.total)]
        }
        var total = Evaluation.Counts()
        for e in evaluations {
            rows.append(row(relative(e.folder), e.counts))
            total = total + e.counts
        }
        rows.append(row("total (\(evaluations.count) folders)", total))
        print(TextTable.render(rows))
        printItems(evaluations.map { (relative($0.folder), $0) })
    }

    /// The wrong and unreadable images (every image with --verbose), paths relative to the folder given.
    func printItems(_ groups: [(prefix: String, evaluation: Evaluation)]) {
        var rows: [[String]] = []
        for (prefix, e) in groups {
            for item in e.items where verbose || item.verdict == .wrong || item.verdict == .error {
                let file = prefix.isEmpty ? item.file : (prefix as NSString).appendingPathComponent(item.file)
                rows.append([file, item.label, item.read ?? "-", item.verdict.rawValue, item.message ?? ""] + (verbose ? [item.seen] : []))
            }
        }
        guard !rows.isEmpty else { return }
        print("")
        print(TextTable.render([["FILE", "LABEL", "READ", "VERDICT", "NOTE"] + (verbose ? ["SEEN"] : [])] + rows))
    }

    /// `Samples/stills/words` -> `words` when evaluating `Samples/stills`.
    func relative(_ path: String) -> String {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    // MARK: JSON

    func summaryJSON(_ evaluations: [Evaluation], tasks: [Evaluation.Task], readerName: String) -> JSONText {
        func counts(_ c: Evaluation.Counts) -> [(String, JSONText)] {
            [
                ("total", .int(c.total)), ("correct", .int(c.correct)), ("wrong", .int(c.wrong)),
                ("noReading", .int(c.noReading)), ("errors", .int(c.errors)),
                ("accuracy", .number((c.accuracy * 10000).rounded() / 10000)),
                ("wrongRate", .number((c.wrongRate * 10000).rounded() / 10000)),
            ]
        }
        func item(_ i: Evaluation.Item) -> JSONText {
            .object([
                ("file", .string(i.file)), ("label", .string(i.label)), ("read", .optional(i.read)),
                ("verdict", .string(i.verdict.rawValue)), ("message", .optional(i.message)),
                ("peripheral", i.peripheral.map { .int($0) } ?? .null),
                ("confidence", i.confidence.map { .number(($0 * 10000).rounded() / 10000) } ?? .null),
            ])
        }
        var total = Evaluation.Counts()
        var folders: [JSONText] = []
        for (e, task) in zip(evaluations, tasks) {
            let c = e.counts
            total = total + c
            var members: [(String, JSONText)] = [
                ("folder", .string(e.folder)),
                ("peripherals", .array(Set(task.settings.map(\.peripheral.id)).sorted().map { .int($0) })),
            ]
            members += counts(c)
            members.append(("wrongItems", .array(e.items.filter { $0.verdict == .wrong }.map(item))))
            members.append(("errorItems", .array(e.items.filter { $0.verdict == .error }.map(item))))
            if verbose { members.append(("items", .array(e.items.map(item)))) }
            folders.append(.object(members))
        }
        return .object([
            ("root", .string(folder)),
            ("reader", .string(readerName)),
            ("split", .string(split.rawValue)),
            ("folders", .array(folders)),
            ("total", .object([("folders", .int(evaluations.count))] + counts(total))),
        ])
    }
}
