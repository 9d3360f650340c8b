/// Blood pressure, pulse, body temperature and oxygen saturation (Validic `biometrics`); any subset of them,
/// as one device shows them together.
public struct BiometricsRecord: MeasurementSetRecord {
    public static let recordType = RecordType.biometrics

    public var header: RecordHeader
    /// mmHg.
    public private(set) var systolic: Double?
    /// mmHg.
    public private(set) var diastolic: Double?
    /// Pulse in beats per minute, from a blood pressure monitor or a pulse oximeter (Validic `resting_heartrate`).
    public private(set) var restingHeartRate: Double?
    /// °C, converted at full precision from the displayed unit.
    public private(set) var temperature: Double?
    /// The temperature as the thermometer showed it.
    public private(set) var displayedTemperature: DisplayedValue<TemperatureUnit>?
    /// Oxygen saturation, %.
    public private(set) var spo2: Double?

    /// At least one value; systolic and diastolic together. `temperature` is in `temperatureUnit`.
    public init(
        header: RecordHeader,
        systolic: Double? = nil,
        diastolic: Double? = nil,
        restingHeartRate: Double? = nil,
        temperature: Double? = nil,
        temperatureUnit: TemperatureUnit = .celsius,
        spo2: Double? = nil
    ) throws(RecordValidationError) {
        let displayedTemperature = temperature.map { DisplayedValue($0, temperatureUnit) }
        self.header = header
        self.systolic = systolic
        self.diastolic = diastolic
        self.restingHeartRate = restingHeartRate
        self.temperature = displayedTemperature?.canonicalValue
        self.displayedTemperature = displayedTemperature
        self.spo2 = spo2
        try validate()
    }

    public var measurements: [(field: RecordField, value: Double)] {
        let all: [(RecordField, Double?)] = [
            (.systolic, systolic), (.diastolic, diastolic), (.restingHeartRate, restingHeartRate),
            (.temperature, temperature), (.spo2, spo2),
        ]
        return all.compactMap { field, value in value.map { (field, $0) } }
    }

    public func validate() throws(RecordValidationError) {
        try checkMeasurements()
        switch (systolic, diastolic) {
        case (.some, nil): throw .incompleteBloodPressure(missing: .diastolic)
        case (nil, .some): throw .incompleteBloodPressure(missing: .systolic)
        case (let systolic?, let diastolic?) where systolic <= diastolic:
            throw .systolicNotAboveDiastolic(systolic: systolic, diastolic: diastolic)
        default: break
        }
    }
}

extension BiometricsRecord {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try writeFields(into: &container)
    }

    func writeFields(into fields: inout some RecordFieldWriter) throws {
        let rawData = displayedTemperature.map { [(RecordField.temperature.rawValue, $0.rawMeasurement)] } ?? []
        try writeMeasurements(into: &fields, rawData: rawData)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        let (header, rawData) = try RecordHeader.decode(from: container)
        func value(_ field: RecordField) throws -> Double? { try container.decodeIfPresent(Double.self, forKey: JSONKey(field)) }
        self.header = header
        self.systolic = try value(.systolic)
        self.diastolic = try value(.diastolic)
        self.restingHeartRate = try value(.restingHeartRate)
        self.spo2 = try value(.spo2)
        let temperature = try value(.temperature)
        self.temperature = temperature
        self.displayedTemperature = temperature.map { celsius in
            rawData[RecordField.temperature.rawValue].flatMap { DisplayedValue($0) } ?? DisplayedValue(celsius, .celsius)
        }
        try checkDecoded(decoder)
    }
}
