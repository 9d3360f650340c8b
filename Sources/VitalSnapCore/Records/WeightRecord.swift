/// A body weight reading (Validic `weight`). Stored in kilograms, with what the scale showed kept beside it.
public struct WeightRecord: HealthRecord {
    public static let recordType = RecordType.weight

    public var header: RecordHeader
    /// Kilograms, converted at full precision from the displayed unit.
    public private(set) var weight: Double
    /// The value and unit on the scale's display.
    public private(set) var displayedWeight: DisplayedValue<WeightUnit>

    /// `value` as shown in `unit`.
    public init(header: RecordHeader, weight value: Double, unit: WeightUnit = .kilograms) throws(RecordValidationError) {
        let displayed = DisplayedValue(value, unit)
        self.header = header
        self.weight = displayed.canonicalValue
        self.displayedWeight = displayed
        try validate()
    }

    /// The weight in `unit`, not rounded; use `unit.format` to show it.
    public func weight(in unit: WeightUnit) -> Double {
        unit.fromCanonical(weight)
    }

    public func validate() throws(RecordValidationError) {
        try header.validate()
        try RecordField.weight.check(weight)
    }
}

extension WeightRecord {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try header.encode(into: &container, rawData: [RecordField.weight.rawValue: displayedWeight.rawMeasurement])
        try container.encode(weight, forKey: JSONKey(.weight))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        let (header, rawData) = try RecordHeader.decode(from: container)
        let kilograms = try container.decode(Double.self, forKey: JSONKey(.weight))
        self.header = header
        self.weight = kilograms
        self.displayedWeight =
            rawData[RecordField.weight.rawValue].flatMap { DisplayedValue($0) } ?? DisplayedValue(kilograms, .kilograms)
        try checkDecoded(decoder)
    }
}
