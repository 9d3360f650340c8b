import Foundation
import VitalSnapCore

/// A small JSON file of Bluetooth state in the data directory, read whole and replaced whole (crash-safe, 0600).
struct JSONStateFile<Value: Codable> {
    let path: String

    func load() throws(StorageError) -> Value? {
        guard let data = try DurableFile.read(path) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .cannotRead(path: path, reason: "not the expected JSON (\(error)); move it away to start afresh")
        }
    }

    func save(_ value: Value, in directory: DataDirectory) throws(StorageError) {
        try directory.create()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do { data = try encoder.encode(value) } catch { throw .cannotWrite(path: path, reason: "\(error)") }
        try DurableFile.write(data, to: path, mode: 0o600)
    }

    func delete() {
        unlink(path)
    }
}
