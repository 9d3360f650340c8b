/// A number as a display shows it, parsed from recognized characters.
public struct NumberText: Sendable, Hashable {
    public var text: String
    public var value: Double
    public var decimals: Int

    /// Parses `-12.5`, `0456`, `33.01`; nil when the text holds anything but one optional leading minus, digits
    /// and at most one decimal point between digits.
    public init?(_ text: String) {
        var digitsBefore = 0, digitsAfter = 0, dots = 0
        for (i, c) in text.enumerated() {
            if c == "-" {
                guard i == 0 else { return nil }
            } else if c == "." {
                dots += 1
                guard dots == 1, digitsBefore > 0 else { return nil }
            } else if c.isASCII && c.isNumber {
                if dots == 0 { digitsBefore += 1 } else { digitsAfter += 1 }
            } else {
                return nil
            }
        }
        guard digitsBefore > 0, dots == 0 || digitsAfter > 0, let v = Double(text) else { return nil }
        self.text = text
        self.value = v
        self.decimals = digitsAfter
    }
}

/// The words meters show instead of a value, as recognized on seven segments.
public enum DisplayWord {
    /// `LO`, `HI`, `Err` (and the ways segments render them: `L0`, `Lo`, `H1`, `HI`, `E`, `Er`, `Err`).
    public static func word(in text: String) -> String? {
        switch text {
        case "LO", "L0", "Lo": "LO"
        case "HI", "H1": "HI"
        case "Er", "Err", "E-", "E--": "Err"
        default: nil
        }
    }
}
