import Foundation

/// One device of the Bluetooth catalog: how it is found (the name it advertises, as a regular expression, and
/// its advertised service), where its readings are (service and characteristic, 16-bit SIG UUIDs or 128-bit
/// vendor ones), whether it must be paired, how long to wait, and what to tell the user.
public struct BLEPeripheral: Codable, Equatable, Sendable {
    public var id: Int
    public var type: BLEPeripheralType
    public var manufacturer: String
    public var model: String
    /// Listed for completeness but not offered (the SDK disabled it).
    public var disabled: Bool
    /// A regular expression over the advertised local name.
    public var advertisedName: String
    public var advertisedService: String?
    public var readingService: String?
    public var characteristic: String?
    public var requiresPairing: Bool
    /// The SDK's per-device option bits, kept as given.
    public var options: Int
    public var connectionTimeoutSeconds: Int
    public var readingTimeoutSeconds: Int
    /// How to make it visible (wake it, start a measurement).
    public var instructions: String
    public var pairingInstructions: String?
    /// What to do while it is read.
    public var readingInstructions: String

    public var name: String { "\(manufacturer) \(model)" }

    /// Whether an advertised local name is this device's (the pattern is searched for, as the SDK does).
    public func matches(advertisedName name: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: advertisedName) else { return false }
        return expression.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    }
}
