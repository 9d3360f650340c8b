/// A blood glucose reading (Validic `diabetes`). Stored in mg/dL, with what the meter showed kept beside it.
public struct DiabetesRecord: HealthRecord {
    public static let recordType = RecordType.diabetes

    public var header: RecordHeader
    /// mg/dL, converted at full precision from the displayed unit: 5.6 mmol/L is 100.8 mg/dL, not 101.
    public private(set) var bloodGlucose: Double
    /// The value and unit on the meter's display.
    public private(set) var displayedBloodGlucose: DisplayedValue<GlucoseUnit>
    /// Entered by the person; nil when not given (Validic's "None").
    public var relationshipToMeal: MealRelationship?

    /// `value` as shown in `unit`; there is no default unit, because guessing it is the classic glucose error.
    public init(
        header: RecordHeader, bloodGlucose value: Double, unit: GlucoseUnit, relationshipToMeal: MealRelationship? = nil
    ) throws(RecordValidationError) {
        let displayed = DisplayedValue(value, unit)
        self.header = header
        self.bloodGlucose = displayed.canonicalValue
        self.displayedBloodGlucose = displayed
        self.relationshipToMeal = relationshipToMeal
        try validate()
    }

    /// The reading in `unit`, not rounded; use `unit.format` to show it.
    public func bloodGlucose(in unit: GlucoseUnit) -> Double {
        unit.fromCanonical(bloodGlucose)
    }

    public func validate() throws(RecordValidationError) {
        try header.validate()
        try RecordField.bloodGlucose.check(bloodGlucose)
    }
}

extension DiabetesRecord {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try writeFields(into: &container)
    }

    func writeFields(into fields: inout some RecordFieldWriter) throws {
        try header.writeFields(into: &fields, rawData: [(RecordField.bloodGlucose.rawValue, displayedBloodGlucose.rawMeasurement)])
        try fields.write(bloodGlucose, forKey: .bloodGlucose)
        try fields.writeIfPresent(relationshipToMeal?.rawValue, forKey: "relationship_to_meal")
    }

    /// `blood_glucose` is authoritative; the displayed value comes from `extras.raw_data` and defaults to the
    /// mg/dL value for records that carry none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        let (header, rawData) = try RecordHeader.decode(from: container)
        let mgPerDL = try container.decode(Double.self, forKey: JSONKey(.bloodGlucose))
        self.header = header
        self.bloodGlucose = mgPerDL
        self.displayedBloodGlucose =
            rawData[RecordField.bloodGlucose.rawValue].flatMap { DisplayedValue($0) } ?? DisplayedValue(mgPerDL, .mgPerDL)
        self.relationshipToMeal = try container.decodeIfPresent(MealRelationship.self, forKey: "relationship_to_meal")
        try checkDecoded(decoder)
    }
}
