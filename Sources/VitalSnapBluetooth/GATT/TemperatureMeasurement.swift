/// Temperature Measurement (0x2A1C, Health Thermometer service 0x1809).
public struct TemperatureMeasurement: Equatable, Sendable {
    public static let uuid: UInt16 = 0x2A1C
    static let name = "Temperature Measurement (2A1C)"

    public enum Unit: String, Sendable { case celsius = "°C", fahrenheit = "°F" }

    public var unit: Unit
    /// A FLOAT (32-bit), unlike the other health characteristics' SFLOAT.
    public var temperature: MedicalFloat
    public var timestamp: GATTDateTime?
    /// 1 armpit, 2 body, 3 ear, 4 finger, 5 gastro-intestinal tract, 6 mouth, 7 rectum, 8 toe, 9 tympanum.
    public var type: Int?

    public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
        var reader = GATTReader(bytes, characteristic: Self.name)
        let flags = try reader.uint8("flags")
        unit = flags & 0x01 != 0 ? .fahrenheit : .celsius
        temperature = try reader.float("temperature")
        timestamp = flags & 0x02 != 0 ? try reader.dateTime("time stamp") : nil
        type = flags & 0x04 != 0 ? Int(try reader.uint8("temperature type")) : nil
    }
}
