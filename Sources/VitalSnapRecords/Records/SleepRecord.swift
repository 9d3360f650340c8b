/// One sleep (Validic `sleep`): a night or a nap, as a sleep tracker splits it into stages. Durations in seconds.
public struct SleepRecord: MeasurementSetRecord {
    public static let recordType = RecordType.sleep

    /// Deep, light and REM may exceed total sleep by this much: trackers round each stage to the second
    /// separately.
    public static let stageRoundingTolerance: Double = 1
    /// Sleep and time awake in one record cannot be longer than a day.
    public static let secondsPerDay: Double = 86_400

    public var header: RecordHeader
    /// Seconds asleep, all stages together.
    public private(set) var totalSleep: Double?
    /// Seconds awake in bed, between falling asleep and getting up.
    public private(set) var awake: Double?
    /// Seconds of deep sleep.
    public private(set) var deep: Double?
    /// Seconds of light sleep.
    public private(set) var light: Double?
    /// Seconds of REM sleep.
    public private(set) var rem: Double?
    public private(set) var timesWoken: Double?

    /// At least one value. The stages are parts of `totalSleep`; they need not add up to it, since trackers do
    /// not classify every minute.
    public init(
        header: RecordHeader,
        totalSleep: Double? = nil,
        awake: Double? = nil,
        deep: Double? = nil,
        light: Double? = nil,
        rem: Double? = nil,
        timesWoken: Double? = nil
    ) throws(RecordValidationError) {
        self.header = header
        self.totalSleep = totalSleep
        self.awake = awake
        self.deep = deep
        self.light = light
        self.rem = rem
        self.timesWoken = timesWoken
        try validate()
    }

    public var measurements: [(field: RecordField, value: Double)] {
        let all: [(RecordField, Double?)] = [
            (.totalSleep, totalSleep), (.awake, awake), (.deep, deep), (.light, light), (.rem, rem),
            (.timesWoken, timesWoken),
        ]
        return all.compactMap { field, value in value.map { (field, $0) } }
    }

    public func validate() throws(RecordValidationError) {
        try checkMeasurements()
        let stages = (deep ?? 0) + (light ?? 0) + (rem ?? 0)
        if let totalSleep, stages > totalSleep + Self.stageRoundingTolerance {
            throw .sleepStagesExceedTotal(stages: stages, totalSleep: totalSleep)
        }
        // Without a total, the stages are the sleep known.
        let inBed = (totalSleep ?? stages) + (awake ?? 0)
        if inBed > Self.secondsPerDay { throw .sleepLongerThanADay(seconds: inBed) }
    }
}

extension SleepRecord {
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
        self.totalSleep = try value(.totalSleep)
        self.awake = try value(.awake)
        self.deep = try value(.deep)
        self.light = try value(.light)
        self.rem = try value(.rem)
        self.timesWoken = try value(.timesWoken)
        try checkDecoded(decoder)
    }
}
