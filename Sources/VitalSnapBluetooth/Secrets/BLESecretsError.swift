import VitalSnapCore

/// Why a Bluetooth device key could not be read or stored. Each message names the file or value and says what to do.
public enum BLESecretsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The vendor's key file is not in the data directory.
    case keyFileMissing(vendor: BLEKitVendor, path: String)
    /// The key file is not `{"key": "<hex>"}`.
    case malformedKeyFile(path: String, detail: String)
    /// The key file's key is not hexadecimal digits in pairs.
    case badKeyInFile(path: String, detail: String)
    /// A key to store that is not 32 hexadecimal digits.
    case badKey(detail: String)
    /// A peripheral identifier that is not a UUID.
    case badPeripheralUUID(String)
    /// The stored keys' file cannot be read as VitalSnap wrote it.
    case malformedStoredKeys(path: String, detail: String)
    case storage(StorageError)

    public var description: String {
        switch self {
        case .keyFileMissing(let vendor, let path):
            "no \(vendor) key: put the key from \(vendor)'s licensed kit in \(path) as {\"key\": \"<hex digits>\"}"
        case .malformedKeyFile(let path, let detail):
            "\(path) is not a key file (\(detail)); it must hold {\"key\": \"<hex digits>\"}"
        case .badKeyInFile(let path, let detail):
            "the key in \(path) is not usable: \(detail); copy it again from the vendor's kit, as hexadecimal digits without 0x"
        case .badKey(let detail):
            "the key is not usable: \(detail); give the meter's key as \(BLEDeviceSecrets.peripheralKeyDigits) hexadecimal digits"
        case .badPeripheralUUID(let text):
            "\(text) is not a peripheral UUID; give it as 8-4-4-4-12 hexadecimal digits, e.g. 6F1C2B9E-5D4A-4E7B-9C1D-2A6B8E0F4D13"
        case .malformedStoredKeys(let path, let detail):
            "\(path) is not VitalSnap's key file (\(detail)); move it away and store the keys again"
        case .storage(let error):
            error.description
        }
    }
}
