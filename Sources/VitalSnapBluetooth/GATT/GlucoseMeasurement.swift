import VitalSnapRecords
/// Glucose Measurement (0x2A18, Glucose service 0x1808): one stored reading of a meter, sent for each record the
/// Record Access Control Point reports. Layout: flags, sequence number, base time, then what the flags announce.
public struct GlucoseMeasurement: Equatable, Sendable {
    public static let uuid: UInt16 = 0x2A18
    static let name = "Glucose Measurement (2A18)"

    public enum Unit: String, Sendable { case kilogramsPerLitre = "kg/L", molesPerLitre = "mol/L" }

    /// The Sensor Status Annunciation bits.
    public struct SensorStatus: OptionSet, Equatable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let batteryLow = SensorStatus(rawValue: 0x0001)
        public static let sensorMalfunction = SensorStatus(rawValue: 0x0002)
        public static let sampleSizeInsufficient = SensorStatus(rawValue: 0x0004)
        public static let stripInsertionError = SensorStatus(rawValue: 0x0008)
        public static let stripTypeIncorrect = SensorStatus(rawValue: 0x0010)
        /// The result is lower than the device can process (a meter's "LO").
        public static let resultTooLow = SensorStatus(rawValue: 0x0020)
        /// The result is higher than the device can process (a meter's "HI").
        public static let resultTooHigh = SensorStatus(rawValue: 0x0040)
        public static let temperatureTooHigh = SensorStatus(rawValue: 0x0080)
        public static let temperatureTooLow = SensorStatus(rawValue: 0x0100)
        public static let readInterrupted = SensorStatus(rawValue: 0x0200)
        public static let generalDeviceFault = SensorStatus(rawValue: 0x0400)
        public static let timeFault = SensorStatus(rawValue: 0x0800)
    }

    public var sequenceNumber: UInt16
    public var baseTime: GATTDateTime
    /// Minutes to add to the base time for the user-facing time (nil when absent).
    public var timeOffsetMinutes: Int?
    public var concentration: MedicalFloat?
    public var unit: Unit
    /// 1 capillary whole blood ... 10 control solution (nil when the concentration is absent).
    public var sampleType: Int?
    /// 1 finger, 2 alternate site, 3 earlobe, 4 control solution, 5 subcutaneous, 15 not available.
    public var sampleLocation: Int?
    public var sensorStatus: SensorStatus?
    /// A Glucose Measurement Context (0x2A34) with the same sequence number follows.
    public var contextFollows: Bool

    public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
        var reader = GATTReader(bytes, characteristic: Self.name)
        let flags = try reader.uint8("flags")
        sequenceNumber = try reader.uint16("sequence number")
        baseTime = try reader.dateTime("base time")
        timeOffsetMinutes = flags & 0x01 != 0 ? Int(try reader.int16("time offset")) : nil
        unit = flags & 0x04 != 0 ? .molesPerLitre : .kilogramsPerLitre
        if flags & 0x02 != 0 {
            concentration = try reader.sfloat("glucose concentration")
            let typeAndLocation = try reader.uint8("type and sample location")
            sampleType = Int(typeAndLocation & 0x0F)
            sampleLocation = Int(typeAndLocation >> 4)
        }
        sensorStatus = flags & 0x08 != 0 ? SensorStatus(rawValue: try reader.uint16("sensor status annunciation")) : nil
        contextFollows = flags & 0x10 != 0
    }

    /// The concentration in mg/dL: kg/L x 100,000; mol/L x 1000 (mmol/L) x 18 (Validic's factor). nil when absent
    /// or a special value.
    public var milligramsPerDecilitre: Double? {
        switch unit {
        case .kilogramsPerLitre:
            return concentration?.double(timesTenToThe: GATTUnitConversion.kilogramsPerLitreToMilligramsPerDecilitreExponent)
        case .molesPerLitre:
            return concentration?.double(timesTenToThe: GATTUnitConversion.molesToMillimolesExponent)
                .map(GlucoseUnit.mmolPerL.toCanonical)
        }
    }
}
