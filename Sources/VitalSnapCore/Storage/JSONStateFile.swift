import Foundation

/// A small JSON file of state in the data directory (Bluetooth anchors, Health subscriptions, ...), read whole and
/// replaced whole (crash-safe, mode 0600).
public struct JSONStateFile<Value: Codable>: Sendable {
    public let directory: DataDirectory
    public let path: String

    /// The file `name` in `directory` (made when first saved).
    public init(_ name: String, in directory: DataDirectory) {
        self.directory = directory
        path = directory.path + "/" + name
    }

    /// The value; nil when there is no file. A file that is not the expected JSON is an error naming it.
    public func load() throws(StorageError) -> Value? {
        guard let data = try DurableFile.read(path) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .cannotRead(path: path, reason: "not the expected JSON (\(error)); move it away to start afresh")
        }
    }

    public func save(_ value: Value) throws(StorageError) {
        try directory.create()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do { data = try encoder.encode(value) } catch { throw .cannotWrite(path: path, reason: "\(error)") }
        try DurableFile.write(data, to: path, mode: 0o600)
    }

    public func delete() {
        unlink(path)
    }
}
