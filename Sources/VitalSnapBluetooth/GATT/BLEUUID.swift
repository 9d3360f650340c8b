import Foundation

/// Bluetooth UUIDs written one way, so that BlueZ's `00002a18-0000-1000-8000-00805f9b34fb`, a catalog's `2A18`
/// and `0x2a18` compare equal: a UUID on the Bluetooth base UUID becomes its 16-bit short form, upper case;
/// any other (a vendor's 128-bit UUID) stays whole, upper case.
public enum BLEUUID {
    /// The Bluetooth base UUID (Core Specification, Vol 3, Part B, 2.5.1) after its first 8 hex digits, which
    /// hold a 16- or 32-bit SIG UUID.
    static let baseUUIDSuffix = "-0000-1000-8000-00805F9B34FB"
    /// The leading zeros of a 16-bit UUID written in 32 bits.
    static let shortFormPrefix = "0000"

    public static func normalized(_ text: String) -> String {
        var uuid = text.trimmingCharacters(in: .whitespaces).uppercased()
        if uuid.hasPrefix("0X") { uuid.removeFirst(2) }
        if uuid.hasSuffix(baseUUIDSuffix) { uuid.removeLast(baseUUIDSuffix.count) }
        if uuid.count == 8, uuid.hasPrefix(shortFormPrefix) { uuid.removeFirst(shortFormPrefix.count) }
        return uuid
    }

    /// The 16-bit short form of a SIG UUID: 0x2A18 is `2A18`.
    public static func short(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The 128-bit lowercase form BlueZ uses on D-Bus: a 16- or 32-bit SIG UUID placed in the base UUID,
    /// any other as given, lowercased (`2A18` is `00002a18-0000-1000-8000-00805f9b34fb`).
    public static func full(_ text: String) -> String {
        let uuid = normalized(text)
        switch uuid.count {
        case 4: return (shortFormPrefix + uuid + baseUUIDSuffix).lowercased()
        case 8: return (uuid + baseUUIDSuffix).lowercased()
        default: return uuid.lowercased()
        }
    }
}
