/// Heart Rate Measurement (0x2A37, Heart Rate service 0x180D).
public struct HeartRateMeasurement: Equatable, Sendable {
    public static let uuid: UInt16 = 0x2A37
    static let name = "Heart Rate Measurement (2A37)"

    /// Beats per minute (8 or 16 bits, as flag bit 0 says).
    public var beatsPerMinute: Int
    /// nil when the sensor does not report contact (flag bit 2 clear); else whether the skin is touched.
    public var sensorContact: Bool?
    /// Kilojoules since the last reset.
    public var energyExpended: Int?
    /// Times between beats, in seconds (sent in 1/1024 s).
    public var rrIntervals: [Double]

    public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
        var reader = GATTReader(bytes, characteristic: Self.name)
        let flags = try reader.uint8("flags")
        beatsPerMinute = flags & 0x01 != 0 ? Int(try reader.uint16("heart rate")) : Int(try reader.uint8("heart rate"))
        sensorContact = flags & 0x04 != 0 ? flags & 0x02 != 0 : nil
        energyExpended = flags & 0x08 != 0 ? Int(try reader.uint16("energy expended")) : nil
        rrIntervals = []
        if flags & 0x10 != 0 {
            // At least one, and whole ones: a half interval is a value cut short.
            repeat { rrIntervals.append(Double(try reader.uint16("RR-interval")) / 1024) } while reader.remaining > 0
        }
    }
}
