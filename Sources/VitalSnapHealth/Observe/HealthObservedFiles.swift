import Foundation
import VitalSnapCore

/// The exports `health observe` has imported (`health-observed.json` in the data directory: path → size and
/// modification time), so that after a restart it imports only what arrived while it was stopped.
public struct HealthObservedFiles: Sendable {
    public let path: String
    private let directory: DataDirectory

    public init(directory: DataDirectory) {
        self.directory = directory
        path = directory.path + "/health-observed.json"
    }

    public func load() throws(StorageError) -> [String: String] {
        guard let data = try DurableFile.read(path) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }

    public func record(_ file: String, fingerprint: String) throws(StorageError) {
        var seen = try load()
        seen[file] = fingerprint
        try directory.create()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(seen) else { return }
        try DurableFile.write(data, to: path, mode: 0o600)
    }

    public func clear() { unlink(path) }
}
