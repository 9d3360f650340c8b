/// Writes a record's JSON straight into bytes, exactly as `RecordJSON.makeEncoder()` (Foundation's `JSONEncoder`:
/// sorted keys, slashes unescaped) writes the same fields; the tests compare the two byte for byte on records of
/// every type. Values are written as they come, each object's members sorted when it is closed.
struct RecordJSONWriter: RecordFieldWriter {
    /// The open object's members: each key, with where its value's bytes are in `values`.
    private var members: [(key: String, value: Range<Int>)] = []
    private var values: [UInt8] = []

    init() {
        members.reserveCapacity(16)
        values.reserveCapacity(256)
    }

    /// The object written so far, closed: `{"key":value,...}` with the keys in order.
    mutating func object() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(values.count + members.count * 24 + 2)
        write(into: &out)
        return out
    }

    private mutating func write(into out: inout [UInt8]) {
        // Swift orders ASCII keys as bytes, as Foundation's `.sortedKeys` does.
        members.sort { $0.key < $1.key }
        out.append(UInt8(ascii: "{"))
        for (position, member) in members.enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            Self.write(string: member.key, into: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: values[member.value])
        }
        out.append(UInt8(ascii: "}"))
    }

    private mutating func member(_ key: String, _ write: (inout [UInt8]) -> Void) {
        let start = values.count
        write(&values)
        members.append((key, start..<values.count))
    }

    mutating func write(_ value: String, forKey key: String) {
        member(key) { Self.write(string: value, into: &$0) }
    }

    mutating func write(_ value: Double, forKey key: String) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not a JSON number (\(key))"))
        }
        // Foundation writes integral values without a fraction, others in Swift's shortest form.
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        member(key) { $0.append(contentsOf: text.utf8) }
    }

    mutating func write(_ value: Int, forKey key: String) {
        member(key) { $0.append(contentsOf: String(value).utf8) }
    }

    mutating func write(_ value: Bool, forKey key: String) {
        member(key) { $0.append(contentsOf: (value ? "true" : "false").utf8) }
    }

    mutating func writeObject(forKey key: String, _ body: (inout RecordJSONWriter) throws -> Void) throws {
        var nested = RecordJSONWriter()
        try body(&nested)
        member(key) { nested.write(into: &$0) }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Quotes and escapes as JSON requires (quote, backslash, control characters); `/` and non-ASCII stay as
    /// they are, as `.withoutEscapingSlashes` writes them.
    static func write(string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole.
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case ..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
