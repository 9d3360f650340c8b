/// Zero-padded number fields for dates and offsets (`07`, `0999`), without going through `String(format:)`.
enum ZeroPadded {
    static func text(_ value: Int, width: Int = 2) -> String {
        let digits = String(abs(value))
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
