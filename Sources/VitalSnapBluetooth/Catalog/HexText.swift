/// Bytes written as hexadecimal digits, two per byte, with no `0x` and nothing between them: the licensed-kit
/// keys, the values `ble decode` is given, the payloads of the tests.
public enum HexText {
    /// Why a text is not such a key, in words for the message; nil when it is one.
    public static func problem(_ text: String) -> String? {
        if let problem = characterProblem(text) { return problem }
        if text.count % 2 != 0 { return "it has \(text.count) digits, an odd number: two make one byte" }
        return nil
    }

    /// Why a text is not hexadecimal digits alone, whatever their number; nil when it is.
    static func characterProblem(_ text: String) -> String? {
        if text.isEmpty { return "it is empty" }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return "it starts with 0x; write the digits alone" }
        if let bad = text.first(where: { !$0.isHexDigit || !$0.isASCII }) {
            return "\"\(bad)\" is not a hexadecimal digit (0-9, a-f)"
        }
        return nil
    }

    /// The bytes of a text `problem` found nothing wrong with (a text it would refuse traps).
    public static func bytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            out.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return out
    }
}
