/// How a field looks in one unit: how many decimals the display shows and which values are plausible.
public struct UnitVariant: Codable, Sendable, Hashable {
    public var unit: String
    /// Digits after the decimal point; nil when the display may show any number of them.
    public var decimals: Int?
    /// Plausible values, inclusive; nil when any value is acceptable.
    public var range: [Double]?

    public init(unit: String, decimals: Int?, range: ClosedRange<Double>?) {
        self.unit = unit
        self.decimals = decimals
        self.range = range.map { [$0.lowerBound, $0.upperBound] }
    }

    public var plausibleRange: ClosedRange<Double>? {
        guard let range, range.count == 2, range[0] <= range[1] else { return nil }
        return range[0]...range[1]
    }
}
