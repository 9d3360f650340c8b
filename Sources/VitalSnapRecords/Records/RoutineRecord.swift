/// A day's everyday movement (Validic `routine`): what a step counter or phone totals, any subset of it.
///
/// Counts are `Double`, as Validic's body carries them: totals summed from samples split across day boundaries
/// (HealthKit does this) can be fractional.
public struct RoutineRecord: MeasurementSetRecord {
    public static let recordType = RecordType.routine

    public var header: RecordHeader
    public private(set) var steps: Double?
    /// Metres.
    public private(set) var distance: Double?
    /// Flights of stairs climbed.
    public private(set) var floors: Double?
    /// Metres climbed.
    public private(set) var elevation: Double?
    /// Kilocalories burned.
    public private(set) var caloriesBurned: Double?
    /// Seconds spent active.
    public private(set) var activeDuration: Double?

    /// At least one value, each in the unit its property documents.
    public init(
        header: RecordHeader,
        steps: Double? = nil,
        distance: Double? = nil,
        floors: Double? = nil,
        elevation: Double? = nil,
        caloriesBurned: Double? = nil,
        activeDuration: Double? = nil
    ) throws(RecordValidationError) {
        self.header = header
        self.steps = steps
        self.distance = distance
        self.floors = floors
        self.elevation = elevation
        self.caloriesBurned = caloriesBurned
        self.activeDuration = activeDuration
        try validate()
    }

    public var measurements: [(field: RecordField, value: Double)] {
        let all: [(RecordField, Double?)] = [
            (.steps, steps), (.distance, distance), (.floors, floors), (.elevation, elevation),
            (.caloriesBurned, caloriesBurned), (.activeDuration, activeDuration),
        ]
        return all.compactMap { field, value in value.map { (field, $0) } }
    }

    public func validate() throws(RecordValidationError) {
        try checkMeasurements()
    }
}

extension RoutineRecord {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try writeFields(into: &container)
    }

    func writeFields(into fields: inout some RecordFieldWriter) throws {
        try writeMeasurements(into: &fields)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        let (header, _) = try RecordHeader.decode(from: container)
        func value(_ field: RecordField) throws -> Double? { try container.decodeIfPresent(Double.self, forKey: JSONKey(field)) }
        self.header = header
        self.steps = try value(.steps)
        self.distance = try value(.distance)
        self.floors = try value(.floors)
        self.elevation = try value(.elevation)
        self.caloriesBurned = try value(.caloriesBurned)
        self.activeDuration = try value(.activeDuration)
        try checkDecoded(decoder)
    }
}
