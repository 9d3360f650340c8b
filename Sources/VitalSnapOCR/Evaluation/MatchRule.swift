/// How a reading is compared with its label (see `labels.tsv` in the photo folders).
public enum MatchRule: String, Sendable, Hashable, Codable {
    /// The same values once leading zeros are dropped from each.
    case exact
    /// The label is the displayed number rounded half-up to an integer.
    case integer
    /// The digit strings agree once leading zeros are dropped (decimal points ignored).
    case digits

    /// Labels that say no number must be read: a display word (`LO`, `HI`, `Err`) or `?` (digits hidden).
    public static func expectsNoValue(_ label: String) -> Bool {
        label == "?" || DisplayWord.word(in: label) != nil || label == "LO" || label == "HI" || label == "Err"
    }

    public func matches(reading: String, label: String) -> Bool {
        switch self {
        case .exact:
            let a = reading.split(separator: "/").map { Self.normalized(String($0)) }
            let b = label.split(separator: "/").map { Self.normalized(String($0)) }
            return a == b
        case .integer:
            guard let value = Double(reading), let expected = Int(label) else { return false }
            return Int((value + 0.5).rounded(.down)) == expected
        case .digits:
            let a = Self.dropLeadingZeros(reading.filter { $0.isASCII && $0.isNumber })
            let b = Self.dropLeadingZeros(label.filter { $0.isASCII && $0.isNumber })
            return !a.isEmpty && a == b
        }
    }

    /// `0456` -> `456`, `05.60` -> `5.60`, `-012` -> `-12`.
    static func normalized(_ value: String) -> String {
        var sign = ""
        var v = Substring(value)
        if v.first == "-" { sign = "-"; v = v.dropFirst() }
        while v.count > 1, v.first == "0", v.dropFirst().first != "." { v = v.dropFirst() }
        return sign + v
    }

    static func dropLeadingZeros(_ s: String) -> String {
        let t = s.drop { $0 == "0" }
        return t.isEmpty && !s.isEmpty ? "0" : String(t)
    }
}
