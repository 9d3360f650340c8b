/// Bluetooth UUIDs as BlueZ writes them: 128-bit, lowercase. The catalog and the SIG name 16-bit ones (`2A18`),
/// which sit in the Bluetooth base UUID.
public enum BluetoothUUID {
    /// `0000xxxx-0000-1000-8000-00805f9b34fb`, the base that 16- and 32-bit SIG UUIDs expand into.
    static let baseSuffix = "-0000-1000-8000-00805f9b34fb"

    /// The 128-bit lowercase form of a 16-bit (`2A18`), 32-bit or 128-bit UUID.
    public static func full(_ uuid: String) -> String {
        let text = uuid.lowercased()
        switch text.count {
        case 4: return "0000" + text + baseSuffix
        case 8: return text + baseSuffix
        default: return text
        }
    }

    /// The 16-bit short form (`2A18`) when `uuid` is in the SIG base, else the 128-bit form, uppercase for display.
    public static func short(_ uuid: String) -> String {
        let text = full(uuid)
        if text.hasPrefix("0000"), text.hasSuffix(baseSuffix), text.count == 36 {
            return String(text.dropFirst(4).prefix(4)).uppercased()
        }
        return text.uppercased()
    }
}
