import Foundation

/// One workout or activity (Validic `fitness`): what it was, how hard, when it started, and any of its distance,
/// duration and calories.
public struct FitnessRecord: MeasurementSetRecord {
    public static let recordType = RecordType.fitness

    public var header: RecordHeader
    /// The activity's name ("Running", "Yoga"); JSON `type`. Free text: apps and devices name activities their own
    /// way, and Validic keeps the name as given.
    public var activityType: String?
    public var intensity: FitnessIntensity?
    /// When the activity began, to the whole second (like the header's timestamp, so a record compares equal to
    /// itself after a trip through JSON). Written in the header's UTC offset: the activity and the record share
    /// one wall clock.
    public var startTime: Date? {
        didSet { startTime = startTime.map(Self.wholeSeconds) }
    }
    /// Metres.
    public private(set) var distance: Double?
    /// Seconds.
    public private(set) var duration: Double?
    /// Kilocalories burned.
    public private(set) var calories: Double?

    /// At least one of distance, duration and calories: the name and intensity alone record no activity.
    public init(
        header: RecordHeader,
        activityType: String? = nil,
        intensity: FitnessIntensity? = nil,
        startTime: Date? = nil,
        distance: Double? = nil,
        duration: Double? = nil,
        calories: Double? = nil
    ) throws(RecordValidationError) {
        self.header = header
        self.activityType = activityType
        self.intensity = intensity
        self.startTime = startTime.map(Self.wholeSeconds)
        self.distance = distance
        self.duration = duration
        self.calories = calories
        try validate()
    }

    /// `startTime` as the JSON writes it: `2024-03-05T06:30:00-05:00`.
    public var startTimeText: String? {
        startTime.map { RecordTimestamp.string(from: $0, offset: header.utcOffset) }
    }

    public var measurements: [(field: RecordField, value: Double)] {
        let all: [(RecordField, Double?)] = [(.distance, distance), (.duration, duration), (.calories, calories)]
        return all.compactMap { field, value in value.map { (field, $0) } }
    }

    public func validate() throws(RecordValidationError) {
        try checkMeasurements()
    }

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}

extension FitnessRecord {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try writeFields(into: &container)
    }

    func writeFields(into fields: inout some RecordFieldWriter) throws {
        try writeMeasurements(into: &fields)
        try fields.writeIfPresent(activityType, forKey: "type")
        try fields.writeIfPresent(intensity?.rawValue, forKey: "intensity")
        try fields.writeIfPresent(startTimeText, forKey: "start_time")
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        let (header, _) = try RecordHeader.decode(from: container)
        func value(_ field: RecordField) throws -> Double? { try container.decodeIfPresent(Double.self, forKey: JSONKey(field)) }
        self.header = header
        self.activityType = try container.decodeIfPresent(String.self, forKey: "type")
        self.intensity = try container.decodeIfPresent(FitnessIntensity.self, forKey: "intensity")
        if let text = try container.decodeIfPresent(String.self, forKey: "start_time") {
            guard let parsed = RecordTimestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: "start_time", in: container,
                    debugDescription: "\(text) is not an ISO 8601 timestamp with an offset")
            }
            self.startTime = Self.wholeSeconds(parsed.date)
        } else {
            self.startTime = nil
        }
        self.distance = try value(.distance)
        self.duration = try value(.duration)
        self.calories = try value(.calories)
        try checkDecoded(decoder)
    }
}
