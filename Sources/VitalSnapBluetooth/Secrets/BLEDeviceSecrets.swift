import Foundation
import VitalSnapCore

/// The keys licensed-kit meters need, kept in the data directory: one per vendor for AgaMatrix's and CVS Health's
/// meters (`agamatrix-authkey.json`, `cvshealth-authkey.json`, put there by whoever holds the kit), and one per
/// meter for Roche's CoaguChek (stored with `store(key:forPeripheralUUID:)` in `ble-keys.json`, mode 0600, written
/// whole and atomically).
public struct BLEDeviceSecrets: Sendable {
    /// The file of per-meter keys in the data directory.
    public static let storedKeysFileName = "ble-keys.json"
    /// Hexadecimal digits of a per-meter key: 16 bytes.
    public static let peripheralKeyDigits = 32

    public let directory: DataDirectory

    public init(directory: DataDirectory) {
        self.directory = directory
    }

    public var storedKeysPath: String { directory.path + "/" + Self.storedKeysFileName }

    public func keyFilePath(for vendor: BLEKitVendor) -> String { directory.path + "/" + vendor.keyFileName }

    /// The bytes of `vendor`'s key, from its file.
    public func key(for vendor: BLEKitVendor) throws(BLESecretsError) -> [UInt8] {
        let path = keyFilePath(for: vendor)
        let data: Data?
        do { data = try DurableFile.read(path) } catch { throw .storage(error) }
        guard let data else { throw .keyFileMissing(vendor: vendor, path: path) }
        let file: KeyFile
        do {
            file = try JSONDecoder().decode(KeyFile.self, from: data)
        } catch {
            throw .malformedKeyFile(path: path, detail: Self.reason(error))
        }
        if let problem = HexText.problem(file.key) { throw .badKeyInFile(path: path, detail: problem) }
        return HexText.bytes(file.key)
    }

    /// Stores a meter's key under its peripheral UUID (any case), replacing one stored before.
    public func store(key: String, forPeripheralUUID peripheralUUID: String) throws(BLESecretsError) {
        let uuid = try Self.checkedUUID(peripheralUUID)
        try Self.checkPeripheralKey(key)
        var keys = try storedKeys()
        keys[uuid] = key.lowercased()
        do {
            try JSONStateFile<StoredKeys>(Self.storedKeysFileName, in: directory).save(StoredKeys(keys: keys))
        } catch {
            throw .storage(error)
        }
    }

    /// The bytes of the key stored for a meter; nil when none is.
    public func key(forPeripheralUUID peripheralUUID: String) throws(BLESecretsError) -> [UInt8]? {
        let uuid = try Self.checkedUUID(peripheralUUID)
        return try storedKeys()[uuid].map(HexText.bytes)
    }

    /// Throws unless `key` is a per-meter key: 32 hexadecimal digits.
    public static func checkPeripheralKey(_ key: String) throws(BLESecretsError) {
        if let problem = HexText.characterProblem(key) { throw .badKey(detail: problem) }
        guard key.count == peripheralKeyDigits else {
            throw .badKey(detail: "it has \(key.count) digits, not \(peripheralKeyDigits)")
        }
    }

    /// The UUID in one form (upper case, as `UUID` writes it), or why it is none.
    public static func checkedUUID(_ text: String) throws(BLESecretsError) -> String {
        guard let uuid = UUID(uuidString: text) else { throw .badPeripheralUUID(text) }
        return uuid.uuidString
    }

    private func storedKeys() throws(BLESecretsError) -> [String: String] {
        let data: Data?
        do { data = try DurableFile.read(storedKeysPath) } catch { throw .storage(error) }
        guard let data else { return [:] }
        let stored: StoredKeys
        do {
            stored = try JSONDecoder().decode(StoredKeys.self, from: data)
        } catch {
            throw .malformedStoredKeys(path: storedKeysPath, detail: Self.reason(error))
        }
        for (uuid, key) in stored.keys where UUID(uuidString: uuid)?.uuidString != uuid || HexText.problem(key) != nil {
            throw .malformedStoredKeys(path: storedKeysPath, detail: "the entry for \(uuid) is not a UUID and a key")
        }
        return stored.keys
    }

    /// A decoding error in a few words.
    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is not text"
        case .dataCorrupted?: "not JSON"
        default: "\(error)"
        }
    }

    /// A vendor's key file.
    private struct KeyFile: Decodable {
        var key: String
    }

    /// `ble-keys.json`: `{"keys": {"<PERIPHERAL UUID>": "<hex>"}}`.
    private struct StoredKeys: Codable {
        var keys: [String: String]
    }
}
