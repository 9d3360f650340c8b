/// How a reading is compared with its label (see `labels.tsv` in the photo folders).
public enum MatchRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// The same values once leading zeros are dropped from each (`098` matches `98`, `05.60` matches `5.60`).
    case exact
    /// The label is the displayed number rounded half-up to an integer (`33.01` and `32.5` match `33`).
    case integer
    /// The digit strings agree once leading zeros are dropped (decimal points ignored).
    case digits
    /// The reading is within `litresTolerance` of the label, either way (`62.67` and `63.9` match `63`): for
    /// labels that truncate, round or add one to the number shown, as the fuel-pump folder's do (its labels file
    /// says `integer`: `vitalsnap eval --match litres` applies this rule to every row instead).
    case litres

    /// How far a reading may lie from its label under `litres`: one unit (a litre on a fuel pump), so that a
    /// label truncated (`62` for 62.67), rounded (`63`) or one too high (`63` for 62.0) still matches.
    public static let litresTolerance = 1.0

    /// Labels that say no number must be read: a display word (`LO`, `HI`, `Err`) or `?` (digits hidden).
    public static func expectsNoValue(_ label: String) -> Bool {
        label == "?" || DisplayWord.word(in: label) != nil
    }

    public func matches(reading: String, label: String) -> Bool {
        let a = reading.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let b = label.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !a.isEmpty, a.count == b.count else { return false }
        switch self {
        case .exact:
            return zip(a, b).allSatisfy { Self.normalized($0) == Self.normalized($1) }
        case .integer:
            return zip(a, b).allSatisfy { read, expected in
                guard let x = Self.roundedHalfUp(read), let y = Self.integerLabel(expected) else { return false }
                return x == y
            }
        case .litres:
            return zip(a, b).allSatisfy { read, expected in
                guard let x = Self.number(read), let y = Self.number(expected) else { return false }
                return abs(x - y) <= Self.litresTolerance
            }
        case .digits:
            let x = Self.dropLeadingZeros(reading.filter { $0.isASCII && $0.isNumber })
            let y = Self.dropLeadingZeros(label.filter { $0.isASCII && $0.isNumber })
            return !x.isEmpty && x == y
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

    /// Labels and readings beyond this magnitude are no display's numbers (and would not convert to an `Int`
    /// exactly).
    static let largestNumber = 1e15

    /// `33.01` -> 33, `32.5` -> 33, `32.49` -> 32; nil when not a number.
    static func roundedHalfUp(_ text: String) -> Int? {
        number(text).map { Int(($0 + 0.5).rounded(.down)) }
    }

    /// `62.67` -> 62.67; nil when not a finite number of a display's size.
    static func number(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, abs(value) < largestNumber else { return nil }
        return value
    }

    /// `33` -> 33, `033` -> 33, `33.0` -> 33; nil when the label is not a whole number.
    static func integerLabel(_ text: String) -> Int? {
        if let n = Int(text) { return n }
        guard let value = number(text), value.rounded() == value else { return nil }
        return Int(value)
    }

    static func dropLeadingZeros(_ s: String) -> String {
        let t = s.drop { $0 == "0" }
        return t.isEmpty && !s.isEmpty ? "0" : String(t)
    }
}
