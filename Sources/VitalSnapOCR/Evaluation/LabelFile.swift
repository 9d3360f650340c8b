import Foundation

/// A `labels.tsv`: which reading each image of a folder shows. Tab-separated with one header line; columns
/// `file`, `reading` and `match` are required, others (`device`, `source`, `notes`, `peripheral`, `unit`) are
/// kept when present.
public struct LabelFile: Sendable {
    public struct Label: Sendable, Hashable {
        public var file: String
        public var reading: String
        public var match: MatchRule
        public var peripheral: Int?
        public var unit: String?
        public var notes: String

        public init(
            file: String, reading: String, match: MatchRule = .exact, peripheral: Int? = nil, unit: String? = nil,
            notes: String = ""
        ) {
            self.file = file
            self.reading = reading
            self.match = match
            self.peripheral = peripheral
            self.unit = unit
            self.notes = notes
        }
    }

    public var labels: [Label]

    public init(labels: [Label]) { self.labels = labels }

    /// These labels, every one compared by `rule` instead of its own match column.
    public func comparing(by rule: MatchRule) -> LabelFile {
        LabelFile(labels: labels.map { var label = $0; label.match = rule; return label })
    }

    public static func load(_ path: String) throws(LabelFileError) -> LabelFile {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path)
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String = "labels.tsv") throws(LabelFileError) -> LabelFile {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        var rows = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while rows.last?.isEmpty == true { rows.removeLast() }
        guard let header = rows.first?.split(separator: "\t", omittingEmptySubsequences: false)
            .map({ $0.trimmingCharacters(in: .whitespaces) }), header != [""] else {
            throw .malformed(path, line: 1, "empty file")
        }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let fileColumn = column("file"), let readingColumn = column("reading") else {
            throw .malformed(path, line: 1, "header needs `file` and `reading` columns")
        }
        let matchColumn = column("match"), peripheralColumn = column("peripheral"), unitColumn = column("unit")
        let notesColumn = column("notes")
        var labels: [Label] = []
        for (n, row) in rows.enumerated().dropFirst() where !row.isEmpty {
            let cells = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func cell(_ i: Int?) -> String? { i.flatMap { $0 < cells.count ? cells[$0] : nil } }
            guard let file = cell(fileColumn), let reading = cell(readingColumn), !file.isEmpty,
                !reading.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw .malformed(path, line: n + 1, "missing file or reading")
            }
            let matchText = cell(matchColumn) ?? "exact"
            guard let match = MatchRule(rawValue: matchText.isEmpty ? "exact" : matchText) else {
                throw .malformed(path, line: n + 1, "unknown match rule `\(matchText)` (\(MatchRule.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            var peripheral: Int?
            if let text = cell(peripheralColumn)?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
                guard let id = Int(text) else {
                    throw .malformed(path, line: n + 1, "peripheral `\(text)` is not a number")
                }
                peripheral = id
            }
            labels.append(Label(
                file: file, reading: reading.trimmingCharacters(in: .whitespaces), match: match, peripheral: peripheral,
                unit: cell(unitColumn).flatMap { $0.isEmpty ? nil : $0 }, notes: cell(notesColumn) ?? ""))
        }
        return LabelFile(labels: labels)
    }
}

public enum LabelFileError: Error, CustomStringConvertible, Equatable {
    case unreadable(String)
    case malformed(String, line: Int, String)

    public var description: String {
        switch self {
        case .unreadable(let path): "cannot read \(path)"
        case .malformed(let path, let line, let why): "\(path):\(line): \(why)"
        }
    }
}
