/// A body weight reading (Validic `weight`). Stored in kilograms, with what the scale showed kept beside it.
public struct WeightRecord: HealthRecord {
    public static let recordType = RecordType.weight

    public var header: RecordHeader
    /// Kilograms, converted at full precision from the displayed unit.
    public private(set) var weight: Double
    /// The value and unit on the scale's display.
    public private(set) var displayedWeight: DisplayedValue<WeightUnit>
    /// Centimetres, when measured or entered with the weight.
    public private(set) var height: Double?
    /// Lean (fat-free) body mass, kilograms.
    public private(set) var freeMass: Double?
    /// Body fat, percent.
    public private(set) var fatPercent: Double?
    /// Body mass index, kg/m².
    public private(set) var bmi: Double?

    /// `value` as shown in `unit`; the body composition a scale reports with it, each in its field's unit.
    public init(
        header: RecordHeader, weight value: Double, unit: WeightUnit = .kilograms, height: Double? = nil, freeMass: Double? = nil,
        fatPercent: Double? = nil, bmi: Double? = nil
    ) throws(RecordValidationError) {
        let displayed = DisplayedValue(value, unit)
        self.header = header
        self.weight = displayed.canonicalValue
        self.displayedWeight = displayed
        self.height = height
        self.freeMass = freeMass
        self.fatPercent = fatPercent
        self.bmi = bmi
        try validate()
    }

    /// The body composition fields that are present, with their values.
    var composition: [(field: RecordField, value: Double)] {
        let all: [(RecordField, Double?)] = [(.height, height), (.freeMass, freeMass), (.fatPercent, fatPercent), (.bmi, bmi)]
        return all.compactMap { field, value in value.map { (field, $0) } }
    }

    /// The weight in `unit`, not rounded; use `unit.format` to show it.
    public func weight(in unit: WeightUnit) -> Double {
        unit.fromCanonical(weight)
    }

    public func validate() throws(RecordValidationError) {
        try header.validate()
        try RecordField.weight.check(weight)
        for (field, value) in composition { try field.check(value) }
    }
}

extension WeightRecord {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try writeFields(into: &container)
    }

    func writeFields(into fields: inout some RecordFieldWriter) throws {
        try header.writeFields(into: &fields, rawData: [(RecordField.weight.rawValue, displayedWeight.rawMeasurement)])
        try fields.write(weight, forKey: .weight)
        for (field, value) in composition { try fields.write(value, forKey: field) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        let (header, rawData) = try RecordHeader.decode(from: container)
        let kilograms = try container.decode(Double.self, forKey: JSONKey(.weight))
        self.header = header
        self.weight = kilograms
        self.displayedWeight =
            rawData[RecordField.weight.rawValue].flatMap { DisplayedValue($0) } ?? DisplayedValue(kilograms, .kilograms)
        func value(_ field: RecordField) throws -> Double? { try container.decodeIfPresent(Double.self, forKey: JSONKey(field)) }
        self.height = try value(.height)
        self.freeMass = try value(.freeMass)
        self.fatPercent = try value(.fatPercent)
        self.bmi = try value(.bmi)
        try checkDecoded(decoder)
    }
}
