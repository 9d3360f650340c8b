import Foundation

/// Reads every labelled image of a folder and compares with its label.
public struct Evaluation: Sendable {
    public enum Verdict: String, Sendable, Codable {
        case correct
        case wrong
        case noReading = "no-reading"
        case error
    }

    public struct Item: Sendable {
        public var file: String
        public var label: String
        /// What was read: the reading string, a display word, or nil.
        public var read: String?
        public var verdict: Verdict
        public var message: String?
        /// Every number-like line the reader saw, for diagnosing a miss.
        public var seen: String = ""
    }

    public var folder: String
    public var items: [Item] = []

    public var total: Int { items.count }
    public func count(_ verdict: Verdict) -> Int { items.filter { $0.verdict == verdict }.count }

    /// Runs `runner` over the folder's labelled files; `peripheralFor` picks the peripheral of each label
    /// when the labels name one.
    public static func run(
        folder: String, labels: LabelFile, runner: BatchRunner, progress: (Int, Int) -> Void = { _, _ in }
    ) -> Evaluation {
        let entries = labels.labels.map {
            ImageFileCollector.Entry(path: (folder as NSString).appendingPathComponent($0.file), error: nil)
        }
        var evaluation = Evaluation(folder: folder)
        runner.run(entries) { index, result in
            let label = labels.labels[index]
            evaluation.items.append(judge(result, label: label))
            progress(index + 1, entries.count)
        }
        return evaluation
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
                    verdict = w == DisplayWord.word(in: label.reading) ? .correct : .wrong
                } else {
                    verdict = label.reading == "?" ? .correct : .noReading
                }
            } else {
                verdict = .noReading
            }
        }
        var item = Item(file: label.file, label: label.reading, read: read, verdict: verdict, message: result.message)
        item.seen = result.reading?.recognizedText.replacingOccurrences(of: "\n", with: " | ") ?? ""
        return item
    }
}
