import ArgumentParser
import Foundation
import VitalSnapImaging
import VitalSnapOCR

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Read the displays in a set of photos (JSON Lines, TSV or a table).",
        discussion: """
            Takes image files and folders (searched recursively for \(ImageFormat.fileExtensionList) \
            files; hidden files skipped). JPEG, PNG, WebP and HEIF/HEIC are read, told apart by their \
            bytes, not their names. Prints one result per image, in input order, as soon as it and all before it \
            are read. A photo that shows no readable value gets status `no-reading` with the reason; a file \
            that cannot be read (empty, truncated, corrupt, not an image, too large, missing, or a folder \
            that cannot be listed) gets status `error` with a message, and the batch goes on.

            JSON Lines (the default): one object per image with the keys file, status (ok, no-reading or \
            error), reading (e.g. "120/80/72", or null), values (field, value, text, unit), unit, confidence \
            (0-1), glare (share of the display, coversDigits, regions), display (the text seen), word (LO, HI, \
            Err), message (why no reading), error (why unreadable) and warnings. Every key is always present.

            A filter for pipes and schedulers: --paths-from FILE (or - for standard input) reads the paths \
            one per line, as they come, besides or instead of the arguments; --shard K/N keeps the inputs of \
            one of N stable shares (by a hash of each path, whatever their order), so N machines or job-array \
            tasks can split a folder; --resume OUT.jsonl skips the files OUT.jsonl already has a result for \
            and appends the others' results to it instead of printing them: after a crash or a kill, the same \
            command with --resume goes on where it stopped, every input once in the end. Results are written \
            and flushed one line at a time, in input order, so a killed run loses only the images being read. \
            Memory stays flat however many inputs there are (the table format holds its rows until the end).

            On stderr: a progress bar with the time left when stderr is a terminal, and at the end a summary \
            (images per status, images per second) unless --quiet.

            Exit status: 0 when every image was processed (whether or not it showed a value), 1 when any \
            image could not be read (the files are listed on stderr), 64 for a usage error.

            Examples:
              vitalsnap batch photos/ --peripheral 9
              vitalsnap batch a.jpg b.jpg -p 9 --unit mmol --format table
              vitalsnap batch Samples/stills/bp-b3 -p 2 --format tsv > bp.tsv
              vitalsnap batch photos/ -p 9 | jq -r 'select(.status == "ok") | .reading'
              find /data/study -name '*.heic' | vitalsnap batch --paths-from - -p 9
              vitalsnap batch /data/study -p 9 --resume study.jsonl
              vitalsnap batch /data/study -p 9 --shard 3/8 > part-3.jsonl
              vitalsnap batch /data/study -p 9 --shard 3/8 --dry-run | wc -l
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, tsv, table
    }

    @Argument(help: ArgumentHelp("Image files or folders.", valueName: "path")) var paths: [String] = []
    @OptionGroup var options: PeripheralOptions
    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var logging: LogOptions
    @Option(name: .shortAndLong, help: ArgumentHelp("Photos read at once (default: all cores).", valueName: "n"))
    var jobs: Int?
    @Option(help: "Output format: jsonl (one JSON object per line), tsv (with a header line) or table.")
    var format: Format = .jsonl
    @Option(help: ArgumentHelp(
        "Also read the paths listed in this file, one per line (- for standard input), as they come.", valueName: "file"))
    var pathsFrom: String?
    @Option(help: ArgumentHelp(
        "Read only shard K of N: the inputs whose path hashes to it (K from 1 to N).", valueName: "K/N"))
    var shard: String?
    @Option(help: ArgumentHelp(
        "Append the results to this JSON Lines file, skipping the files it already has a result for.", valueName: "out.jsonl"))
    var resume: String?
    @Flag(name: .shortAndLong, help: "No summary on stderr at the end.")
    var quiet = false
    @Flag(help: "Print the paths that would be read (after --shard and --resume), one per line, and read none.")
    var dryRun = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if paths.isEmpty && pathsFrom == nil {
            throw ValidationError("give image files or folders, or --paths-from FILE (- for standard input)")
        }
        if let shard {
            do { _ = try BatchShard(parsing: shard) } catch { throw ValidationError("--shard: \(error)") }
        }
        if resume != nil && format != .jsonl {
            throw ValidationError("--resume appends JSON Lines: it cannot be used with --format \(format.rawValue)")
        }
    }

    /// Whether `path` is a regular file (stdin `-`, a FIFO or a `/dev/fd` pipe is not: it can be read once).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return path != "-" && stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    static let tsvHeader = ["file", "status", "reading", "unit", "confidence", "glare", "message"]

    /// Failures listed on stderr at the end; the rest are counted.
    static let failuresListed = 20

    func run() throws {
        logging.bootstrap()
        let setting = try options.resolve()
        let shard = try self.shard.map { try BatchShard(parsing: $0) }
        let log = try resume.map { try BatchResumeLog(path: $0, readOnly: dryRun) }
        if dryRun {
            let output = LineOutput.standardOutput()
            for entry in try inputs(shard: shard, skipping: log) { try output.write(entry.path) }
            return
        }
        let started = Date()
        // The total is known for the progress bar only when the inputs can be counted before reading them: a
        // path list that can be read twice (a regular file, not stdin, a pipe or `<(find ...)`); counting costs a
        // walk of the folders, so only when a bar is drawn.
        let countable = pathsFrom.map(Self.isRegularFile) ?? true
        let total = ProgressBar.stderrIsTerminal && countable ? try inputs(shard: shard, skipping: log).count { _ in true } : nil
        var progress = ProgressBar(total: total, label: "reading")
        var statusCounts: [PhotoResult.Status: Int] = [:]
        var failures: [PhotoResultJSON] = []
        var tableRows = [["FILE", "STATUS", "READING", "UNIT", "CONF", "GLARE", "NOTE"]]
        var writeError: CommandFailure?
        // Results go out a line at a time as they come, even into a pipe: to the resume file, else stdout.
        let output = log?.output ?? LineOutput.standardOutput()
        if format == .tsv { try output.write(Self.tsvHeader.joined(separator: "\t")) }
        let runner = BatchRunner(
            peripheral: setting.peripheral, unit: setting.unit, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            reader: try readerOptions.choice())
        let inputs = try inputs(shard: shard, skipping: log)
        let count = runner.run(streaming: inputs) { index, result in
            let json = PhotoResultJSON(result)
            statusCounts[result.status, default: 0] += 1
            if result.status == .error && failures.count < Self.failuresListed { failures.append(json) }
            var line: String?
            switch format {
            case .jsonl:
                line = json.line()
            case .tsv:
                let glare = json.glare.map { JSONText.number($0.share).render() } ?? ""
                let confidence = JSONText.number(json.confidence).render()
                line = [json.file, json.status, json.reading ?? "", json.unit ?? "", confidence, glare, json.note]
                    .map(Self.tsvCell).joined(separator: "\t")
            case .table:
                tableRows.append([
                    json.file, json.status, json.reading ?? json.word ?? "-", json.unit ?? "",
                    json.status == "ok" ? String(format: "%.2f", json.confidence) : "",
                    Self.glareCell(json.glare), json.note,
                ])
            }
            if let line {
                progress.clear()
                do throws(CommandFailure) { try output.write(line) } catch {
                    // A full disk or a failing device: stop, saying how to go on.
                    writeError = CommandFailure(
                        "\(error); the first \(index) results were written (with --resume on that output, the same "
                            + "command goes on from there)")
                    return .stop
                }
            }
            progress.update(index + 1)
            return .goOn
        }
        progress.clear()
        if let writeError { throw writeError }
        if let error = inputs.pathListError { throw CommandFailure("reading the list of paths \(pathsFrom ?? ""): \(error)") }
        if format == .table { try output.write(TextTable.render(tableRows)) }
        let seconds = Date().timeIntervalSince(started)
        if !quiet {
            printError(summary(count: count, statusCounts: statusCounts, seconds: seconds, skipped: inputs.skipped, outside: inputs.outsideShard, shard: shard, log: log))
        }
        if count == 0 && inputs.skipped == 0 && inputs.outsideShard == 0 {
            throw CommandFailure("no image files (\(ImageFormat.fileExtensionList)) found in \(describeInputs())")
        }
        let failed = statusCounts[.error, default: 0]
        if failed > 0 {
            printError("vitalsnap: \(failed) of \(count) image\(count == 1 ? "" : "s") could not be read:")
            for f in failures { printError("  \(f.file): \(f.note)") }
            if failed > failures.count { printError("  ... and \(failed - failures.count) more") }
            throw ExitCode(1)
        }
    }

    /// The inputs as they are read: the arguments, then the lines of --paths-from, expanded to image files,
    /// less those outside the shard and those the resume file already has.
    func inputs(shard: BatchShard?, skipping log: BatchResumeLog?) throws -> BatchInputs {
        let lines = try pathsFrom.map { try PathLines(path: $0) }
        return BatchInputs(arguments: paths, lines: lines, shard: shard, done: log?.done ?? [])
    }

    func describeInputs() -> String {
        (paths + (pathsFrom.map { ["the paths listed in \($0 == "-" ? "standard input" : $0)"] } ?? [])).joined(separator: ", ")
    }

    /// `vitalsnap batch: 120 images in 8.4 s (14.3 images/s): 103 ok, 15 no-reading, 2 error; ...`
    func summary(
        count: Int, statusCounts: [PhotoResult.Status: Int], seconds: Double, skipped: Int, outside: Int,
        shard: BatchShard?, log: BatchResumeLog?
    ) -> String {
        let rate = seconds > 0 ? Double(count) / seconds : 0
        let statuses = [PhotoResult.Status.ok, .noReading, .error].map { "\(statusCounts[$0, default: 0]) \($0.rawValue)" }
        var text = "vitalsnap batch: \(count) image\(count == 1 ? "" : "s") in \(String(format: "%.1f", seconds)) s "
            + "(\(String(format: "%.1f", rate)) images/s): \(statuses.joined(separator: ", "))"
        if let log { text += "; appended to \(log.path), \(skipped) skipped as already there" }
        if let shard { text += "; shard \(shard): \(outside) input\(outside == 1 ? "" : "s") left to the other shards" }
        return text
    }

    /// A TSV cell: tabs and line breaks would break the columns.
    static func tsvCell(_ s: String) -> String {
        s.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " | ")
    }

    static func glareCell(_ g: PhotoResultJSON.Glare?) -> String {
        guard let g, g.share > 0 || g.coversDigits else { return "" }
        return String(format: "%.0f%%", g.share * 100) + (g.coversDigits ? " over digits" : "")
    }
}
