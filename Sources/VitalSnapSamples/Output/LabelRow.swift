/// One line of a sample folder's `labels.tsv`.
///
/// Columns: `file reading match device source notes peripheral unit`, tab-separated, one header line.
/// `reading` is what a correct reader reports (`?` when nothing may be read), `match` how to compare it
/// (always `exact` here), `source` how to regenerate the image (`generated:seed=N`).
public struct LabelRow: Sendable, Hashable {
    public static let columns = ["file", "reading", "match", "device", "source", "notes", "peripheral", "unit"]

    public var file: String
    public var reading: String
    public var match: String
    public var device: String
    public var source: String
    public var notes: String
    public var peripheral: Int
    public var unit: String

    public init(
        file: String, reading: String, match: String = "exact", device: String, source: String, notes: String,
        peripheral: Int, unit: String
    ) {
        self.file = file
        self.reading = reading
        self.match = match
        self.device = device
        self.source = source
        self.notes = notes
        self.peripheral = peripheral
        self.unit = unit
    }

    var fields: [String] { [file, reading, match, device, source, notes, String(peripheral), unit] }

    /// The whole file: header and rows, each line ending in a newline. Tabs and newlines inside a value
    /// become spaces so the columns cannot shift.
    public static func tsv(_ rows: [LabelRow]) -> String {
        let clean = { (s: String) in String(s.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }) }
        return ([columns.joined(separator: "\t")] + rows.map { $0.fields.map(clean).joined(separator: "\t") })
            .map { $0 + "\n" }.joined()
    }

    /// Parses a `labels.tsv` written by `tsv(_:)`; nil when the header or a row's column count is wrong.
    public static func parse(_ text: String) -> [LabelRow]? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty, lines.removeFirst() == columns.joined(separator: "\t") else { return nil }
        var rows: [LabelRow] = []
        for line in lines {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == columns.count, let id = Int(f[6]) else { return nil }
            rows.append(LabelRow(
                file: f[0], reading: f[1], match: f[2], device: f[3], source: f[4], notes: f[5], peripheral: id, unit: f[7]))
        }
        return rows
    }
}
