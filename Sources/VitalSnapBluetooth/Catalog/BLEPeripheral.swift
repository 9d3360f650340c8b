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
    /// Its protocol is not public: reading it needs the maker's licensed kit and a key from the maker
    /// (`BLEDeviceSecrets`). `requiresLicensedKit` in the catalog, false where absent.
    public var requiresLicensedKit: Bool

    public var name: String { "\(manufacturer) \(model)" }

    /// Whether an advertised local name is this device's (the pattern is searched for, as the SDK does).
    public func matches(advertisedName name: String) -> Bool {
        namePattern().map { Self.name(name, matches: $0) } ?? false
    }

    /// The advertised-name pattern, compiled (once per search: the catalog checked that it compiles).
    public func namePattern() -> NSRegularExpression? {
        try? NSRegularExpression(pattern: advertisedName)
    }

    public static func name(_ name: String, matches pattern: NSRegularExpression) -> Bool {
        pattern.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    }
}

extension BLEPeripheral {
    /// As the synthesized decoder, except that `requiresLicensedKit` may be absent (false): only the entries that
    /// need a kit carry it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        type = try container.decode(BLEPeripheralType.self, forKey: .type)
        manufacturer = try container.decode(String.self, forKey: .manufacturer)
        model = try container.decode(String.self, forKey: .model)
        disabled = try container.decode(Bool.self, forKey: .disabled)
        advertisedName = try container.decode(String.self, forKey: .advertisedName)
        advertisedService = try container.decodeIfPresent(String.self, forKey: .advertisedService)
        readingService = try container.decodeIfPresent(String.self, forKey: .readingService)
        characteristic = try container.decodeIfPresent(String.self, forKey: .characteristic)
        requiresPairing = try container.decode(Bool.self, forKey: .requiresPairing)
        options = try container.decode(Int.self, forKey: .options)
        connectionTimeoutSeconds = try container.decode(Int.self, forKey: .connectionTimeoutSeconds)
        readingTimeoutSeconds = try container.decode(Int.self, forKey: .readingTimeoutSeconds)
        instructions = try container.decode(String.self, forKey: .instructions)
        pairingInstructions = try container.decodeIfPresent(String.self, forKey: .pairingInstructions)
        readingInstructions = try container.decode(String.self, forKey: .readingInstructions)
        requiresLicensedKit = try container.decodeIfPresent(Bool.self, forKey: .requiresLicensedKit) ?? false
    }
}
