/// PLX Spot-Check Measurement (0x2A5E) and PLX Continuous Measurement (0x2A5F), Pulse Oximeter service 0x1822:
/// SpO2 in percent and pulse rate in beats per minute, with the statuses the flags announce.
public struct PLXSpotCheckMeasurement: Equatable, Sendable {
    public static let uuid: UInt16 = 0x2A5E
    static let name = "PLX Spot-Check Measurement (2A5E)"

    public var spo2: MedicalFloat
    public var pulseRate: MedicalFloat
    public var timestamp: GATTDateTime?
    public var measurementStatus: UInt16?
    /// 24 bits.
    public var deviceAndSensorStatus: UInt32?
    public var pulseAmplitudeIndex: MedicalFloat?
    public var deviceClockNotSet: Bool

    public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
        var reader = GATTReader(bytes, characteristic: Self.name)
        let flags = try reader.uint8("flags")
        spo2 = try reader.sfloat("SpO2")
        pulseRate = try reader.sfloat("pulse rate")
        timestamp = flags & 0x01 != 0 ? try reader.dateTime("time stamp") : nil
        measurementStatus = flags & 0x02 != 0 ? try reader.uint16("measurement status") : nil
        deviceAndSensorStatus = flags & 0x04 != 0 ? try reader.uint24("device and sensor status") : nil
        pulseAmplitudeIndex = flags & 0x08 != 0 ? try reader.sfloat("pulse amplitude index") : nil
        deviceClockNotSet = flags & 0x10 != 0
    }
}

public struct PLXContinuousMeasurement: Equatable, Sendable {
    public static let uuid: UInt16 = 0x2A5F
    static let name = "PLX Continuous Measurement (2A5F)"

    /// An SpO2 and pulse-rate pair of one averaging (fast or slow).
    public struct Pair: Equatable, Sendable {
        public var spo2: MedicalFloat
        public var pulseRate: MedicalFloat
    }

    /// The normal-averaging SpO2 and pulse rate, always present.
    public var spo2: MedicalFloat
    public var pulseRate: MedicalFloat
    public var fast: Pair?
    public var slow: Pair?
    public var measurementStatus: UInt16?
    public var deviceAndSensorStatus: UInt32?
    public var pulseAmplitudeIndex: MedicalFloat?

    public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
        var reader = GATTReader(bytes, characteristic: Self.name)
        let flags = try reader.uint8("flags")
        spo2 = try reader.sfloat("SpO2")
        pulseRate = try reader.sfloat("pulse rate")
        fast = flags & 0x01 != 0 ? Pair(spo2: try reader.sfloat("fast SpO2"), pulseRate: try reader.sfloat("fast pulse rate")) : nil
        slow = flags & 0x02 != 0 ? Pair(spo2: try reader.sfloat("slow SpO2"), pulseRate: try reader.sfloat("slow pulse rate")) : nil
        measurementStatus = flags & 0x04 != 0 ? try reader.uint16("measurement status") : nil
        deviceAndSensorStatus = flags & 0x08 != 0 ? try reader.uint24("device and sensor status") : nil
        pulseAmplitudeIndex = flags & 0x10 != 0 ? try reader.sfloat("pulse amplitude index") : nil
    }
}
