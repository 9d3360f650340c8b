/// Blood Pressure Measurement (0x2A35, Blood Pressure service 0x1810), indicated by a cuff once per reading.
public struct BloodPressureMeasurement: Equatable, Sendable {
    public static let uuid: UInt16 = 0x2A35
    static let name = "Blood Pressure Measurement (2A35)"

    public enum Unit: String, Sendable { case millimetresOfMercury = "mmHg", kilopascals = "kPa" }

    /// Measurement Status bits.
    public struct Status: OptionSet, Equatable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let bodyMovement = Status(rawValue: 0x0001)
        public static let cuffTooLoose = Status(rawValue: 0x0002)
        public static let irregularPulse = Status(rawValue: 0x0004)
        /// Bits 3-4: 1 pulse above the upper limit, 2 below the lower one.
        public static let pulseAboveRange = Status(rawValue: 0x0008)
        public static let pulseBelowRange = Status(rawValue: 0x0010)
        public static let improperPosition = Status(rawValue: 0x0020)
    }

    public var unit: Unit
    public var systolic: MedicalFloat
    public var diastolic: MedicalFloat
    public var meanArterialPressure: MedicalFloat
    public var timestamp: GATTDateTime?
    public var pulseRate: MedicalFloat?
    public var userID: UInt8?
    public var status: Status?

    public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
        var reader = GATTReader(bytes, characteristic: Self.name)
        let flags = try reader.uint8("flags")
        unit = flags & 0x01 != 0 ? .kilopascals : .millimetresOfMercury
        systolic = try reader.sfloat("systolic")
        diastolic = try reader.sfloat("diastolic")
        meanArterialPressure = try reader.sfloat("mean arterial pressure")
        timestamp = flags & 0x02 != 0 ? try reader.dateTime("time stamp") : nil
        pulseRate = flags & 0x04 != 0 ? try reader.sfloat("pulse rate") : nil
        userID = flags & 0x08 != 0 ? try reader.uint8("user ID") : nil
        status = flags & 0x10 != 0 ? Status(rawValue: try reader.uint16("measurement status")) : nil
    }
}
