/// Weight Measurement (0x2A9D, Weight Scale service 0x181D). The weight and height are integers in steps of
/// the scale's resolution, which the Weight Scale Feature characteristic (0x2A9E) gives; without it, the
/// finest steps (0.005 kg or 0.01 lb; 0.001 m or 0.1 in).
public struct WeightMeasurement: Equatable, Sendable {
    public static let uuid: UInt16 = 0x2A9D
    static let name = "Weight Measurement (2A9D)"

    public enum Units: String, Sendable { case si = "kg", imperial = "lb" }

    public var units: Units
    /// In kg or lb; nil when the scale sent "measurement unsuccessful" (0xFFFF).
    public var weight: Double?
    public var timestamp: GATTDateTime?
    /// nil when absent; 255 means an unknown user.
    public var userID: UInt8?
    public var bmi: Double?
    /// In metres or inches.
    public var height: Double?

    public init(_ bytes: [UInt8], feature: WeightScaleFeature? = nil) throws(GATTDecodeError) {
        var reader = GATTReader(bytes, characteristic: Self.name)
        let flags = try reader.uint8("flags")
        units = flags & 0x01 != 0 ? .imperial : .si
        let imperial = units == .imperial
        let raw = try reader.uint16("weight")
        // Divided by the steps per unit rather than multiplied by the step, so 229 steps of 0.1 are 22.9 exactly.
        weight = raw == 0xFFFF ? nil : Double(raw) / Double(feature?.weightStepsPerUnit(imperial: imperial) ?? (imperial ? 100 : 200))
        timestamp = flags & 0x02 != 0 ? try reader.dateTime("time stamp") : nil
        userID = flags & 0x04 != 0 ? try reader.uint8("user ID") : nil
        if flags & 0x08 != 0 {
            bmi = Double(try reader.uint16("BMI")) / 10
            height = Double(try reader.uint16("height")) / Double(feature?.heightStepsPerUnit(imperial: imperial) ?? (imperial ? 10 : 1000))
        }
    }
}

/// Weight Scale Feature (0x2A9E): what a scale supports, and the resolution of its weight and height fields.
public struct WeightScaleFeature: Equatable, Sendable {
    public static let uuid: UInt16 = 0x2A9E
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
        var reader = GATTReader(bytes, characteristic: "Weight Scale Feature (2A9E)")
        rawValue = try reader.uint32("features")
    }

    public var timeStampSupported: Bool { rawValue & 0x01 != 0 }
    public var multipleUsersSupported: Bool { rawValue & 0x02 != 0 }
    public var bmiSupported: Bool { rawValue & 0x04 != 0 }

    /// The weight resolution as steps per kg or lb. Bits 3-6: 1 = 0.5 kg / 1 lb, 2 = 0.2 kg / 0.5 lb,
    /// 3 = 0.1 kg / 0.2 lb, 4 = 0.05 kg / 0.1 lb, 5 = 0.02 kg / 0.05 lb, 6 = 0.01 kg / 0.02 lb,
    /// 7 = 0.005 kg / 0.01 lb; 0 (not specified) and reserved values give nil.
    public func weightStepsPerUnit(imperial: Bool) -> Int? {
        let kg = [2, 5, 10, 20, 50, 100, 200], lb = [1, 2, 5, 10, 20, 50, 100]
        let code = Int(rawValue >> 3 & 0x0F)
        guard (1...7).contains(code) else { return nil }
        return imperial ? lb[code - 1] : kg[code - 1]
    }

    /// The height resolution as steps per metre or inch. Bits 7-9: 1 = 0.01 m / 1 in, 2 = 0.005 m / 0.5 in,
    /// 3 = 0.001 m / 0.1 in; otherwise nil.
    public func heightStepsPerUnit(imperial: Bool) -> Int? {
        let metres = [100, 200, 1000], inches = [1, 2, 10]
        let code = Int(rawValue >> 7 & 0x07)
        guard (1...3).contains(code) else { return nil }
        return imperial ? inches[code - 1] : metres[code - 1]
    }
}
