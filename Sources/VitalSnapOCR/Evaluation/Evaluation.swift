import Foundation

/// Reads every labelled image of a folder and compares it with its label.
public struct Evaluation: Sendable {
    public enum Verdict: String, Sendable, Codable, CaseIterable {
        case correct
        case wrong
        case noReading = "no-reading"
        case error
    }

    public struct Item: Sendable {
        /// As the label names it (relative to the folder).
        public var file: String
        public var label: String
        /// What was read: the reading string, a display word, or nil.
        public var read: String?
        public var verdict: Verdict
        public var message: String?
        /// Every number-like line the reader saw, for diagnosing a miss.
        public var seen: String = ""
        /// The peripheral the image was read for (nil when judged without reading).
        public var peripheral: Int?
        /// How sure the reader was of what it read (nil when nothing was read).
        public var confidence: Double?
    }

    /// The figures of one folder or of several together.
    public struct Counts: Sendable, Equatable, Codable {
        public var total = 0
        public var correct = 0
        public var wrong = 0
        public var noReading = 0
        public var errors = 0

        public init() {}

        public mutating func add(_ verdict: Verdict) {
            total += 1
            switch verdict {
            case .correct: correct += 1
            case .wrong: wrong += 1
            case .noReading: noReading += 1
            case .error: errors += 1
            }
        }

        public static func + (a: Counts, b: Counts) -> Counts {
            var c = a
            c.total += b.total
            c.correct += b.correct
            c.wrong += b.wrong
            c.noReading += b.noReading
            c.errors += b.errors
            return c
        }

        /// Share of the images read correctly (0 when there are none).
        public var accuracy: Double { total == 0 ? 0 : Double(correct) / Double(total) }
        /// Share of the images given a wrong value: the figure that must stay near zero.
        public var wrongRate: Double { total == 0 ? 0 : Double(wrong) / Double(total) }
    }

    /// A folder to evaluate: its labels and the peripheral and unit each row is read with.
    public struct Task: Sendable {
        public var folder: String
        public var labels: LabelFile
        /// One per label, in the same order.
        public var settings: [ReaderSetting]

        public init(folder: String, labels: LabelFile, settings: [ReaderSetting]) {
            precondition(settings.count == labels.labels.count, "one setting per label")
            self.folder = folder
            self.labels = labels
            self.settings = settings
        }
    }

    public var folder: String
    public var items: [Item] = []

    public init(folder: String, items: [Item] = []) {
        self.folder = folder
        self.items = items
    }

    public var total: Int { items.count }
    public func count(_ verdict: Verdict) -> Int { items.filter { $0.verdict == verdict }.count }
    public var counts: Counts { items.reduce(into: Counts()) { $0.add($1.verdict) } }
    /// The peripheral ids the items were read for, ascending.
    public var peripherals: [Int] { Set(items.compactMap(\.peripheral)).sorted() }

    /// The setting of each label: `peripheral` and `unit` (from the command line) override the label's own
    /// `peripheral` and `unit` columns. A row whose peripheral is neither given nor in its label is an error,
    /// as is an unknown id or a unit the peripheral does not show (a label's unit is dropped instead when the
    /// peripheral was overridden: it was written for another device).
    public static func settings(
        for labels: LabelFile, labelsPath: String, catalog: PeripheralCatalog, peripheral: Int? = nil, unit: String? = nil
    ) throws(EvaluationError) -> [ReaderSetting] {
        var cache: [ReaderSetting.Key: ReaderSetting] = [:]
        var out: [ReaderSetting] = []
        out.reserveCapacity(labels.labels.count)
        for label in labels.labels {
            guard let id = peripheral ?? label.peripheral else {
                throw .noPeripheral(labelsPath, file: label.file)
            }
            let rowUnit = unit ?? label.unit
            let key = ReaderSetting.Key(peripheral: id, unit: rowUnit)
            if let known = cache[key] {
                out.append(known)
                continue
            }
            do {
                let setting = try ReaderSetting.resolve(
                    peripheral: id, unit: rowUnit, catalog: catalog, lenient: unit == nil && peripheral != nil)
                cache[key] = setting
                out.append(setting)
            } catch {
                throw .setting(labelsPath, file: label.file, error)
            }
        }
        return out
    }

    /// Reads the folder's labelled files with `runner` (entry `i` is label `i`, so a runner built with
    /// per-entry settings reads each label with its own).
    public static func run(
        folder: String, labels: LabelFile, runner: BatchRunner, progress: (Int, Int) -> Void = { _, _ in }
    ) -> Evaluation {
        let entries = labels.labels.map { ImageFileCollector.Entry(path: (folder as NSString).appendingPathComponent($0.file)) }
        var evaluation = Evaluation(folder: folder)
        runner.run(entries) { index, result in
            evaluation.items.append(judge(result, label: labels.labels[index]))
            progress(index + 1, entries.count)
        }
        return evaluation
    }

    /// Evaluates several folders in one pass (the workers stay busy across folder boundaries); one
    /// `Evaluation` per task, in order. `progress` gets (images done, images in all).
    public static func run(
        _ tasks: [Task], jobs: Int, reader: ReaderChoice, progress: (Int, Int) -> Void = { _, _ in }
    ) -> [Evaluation] {
        var entries: [ImageFileCollector.Entry] = []
        var settings: [ReaderSetting] = []
        var owner: [(task: Int, label: Int)] = []
        for (t, task) in tasks.enumerated() {
            for (l, label) in task.labels.labels.enumerated() {
                entries.append(ImageFileCollector.Entry(path: (task.folder as NSString).appendingPathComponent(label.file)))
                settings.append(task.settings[l])
                owner.append((t, l))
            }
        }
        var evaluations = tasks.map { Evaluation(folder: $0.folder) }
        let runner = BatchRunner(settings: settings, jobs: jobs, reader: reader)
        runner.run(entries) { index, result in
            let (t, l) = owner[index]
            var item = judge(result, label: tasks[t].labels.labels[l])
            item.peripheral = settings[index].peripheral.id
            evaluations[t].items.append(item)
            progress(index + 1, entries.count)
        }
        return evaluations
    }

    /// The folders under `root` that hold a `labels.tsv`: `root` itself when it has one, else every folder
    /// below it that has one (searched recursively, sorted by path; hidden folders skipped).
    public static func labelledFolders(under root: String) -> [String] {
        let fm = FileManager.default
        if fm.fileExists(atPath: (root as NSString).appendingPathComponent("labels.tsv")) { return [root] }
        var found: [String] = []
        var visited = Set<String>()
        func walk(_ folder: String) {
            let real = (folder as NSString).resolvingSymlinksInPath
            guard visited.insert(real).inserted else { return }
            guard let names = try? fm.contentsOfDirectory(atPath: folder) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = (folder as NSString).appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard fm.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
                if fm.fileExists(atPath: (path as NSString).appendingPathComponent("labels.tsv")) { found.append(path) }
                walk(path)
            }
        }
        walk(root)
        return found
    }

    public static func judge(_ result: PhotoResult, label: LabelFile.Label) -> Item {
        var read: String? = result.reading?.readingString
        if read == nil, case .word(let w)? = result.reading?.outcome { read = w }
        let verdict: Verdict
        switch result.status {
        case .error:
            verdict = .error
        case .ok:
            if MatchRule.expectsNoValue(label.reading) {
                verdict = .wrong
            } else {
                verdict = label.match.matches(reading: result.reading?.readingString ?? "", label: label.reading) ? .correct : .wrong
            }
        case .noReading:
            if MatchRule.expectsNoValue(label.reading) {
                if case .word(let w)? = result.reading?.outcome {
                    // The right word, or a word where `?` (hidden digits) or another word was expected.
                    verdict = w == DisplayWord.word(in: label.reading) ? .correct : .wrong
                } else {
                    verdict = label.reading == "?" ? .correct : .noReading
                }
            } else if case .word? = result.reading?.outcome {
                // A word where the display shows a value tells the user something false (LO for 107).
                verdict = .wrong
            } else {
                verdict = .noReading
            }
        }
        var item = Item(file: label.file, label: label.reading, read: read, verdict: verdict, message: result.message)
        item.seen = result.reading?.recognizedText.replacingOccurrences(of: "\n", with: " | ") ?? ""
        if read != nil { item.confidence = result.reading?.confidence }
        return item
    }
}

public enum EvaluationError: Error, CustomStringConvertible, Equatable {
    /// A row has no peripheral column value and none was given.
    case noPeripheral(String, file: String)
    case setting(String, file: String, ReaderSettingError)

    public var description: String {
        switch self {
        case .noPeripheral(let path, let file):
            "\(path) gives no peripheral for \(file) (no `peripheral` column, or an empty cell)"
        case .setting(let path, let file, let error):
            "\(path), row \(file): \(error)"
        }
    }
}
