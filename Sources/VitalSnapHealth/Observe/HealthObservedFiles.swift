import Foundation
import VitalSnapCore

/// The exports `health observe` has imported (`health-observed.json` in the data directory: path → size and
/// modification time), so that after a restart it imports only what arrived while it was stopped.
public struct HealthObservedFiles: Sendable {
    private let file: JSONStateFile<[String: String]>
    public var path: String { file.path }

    public init(directory: DataDirectory) {
        file = JSONStateFile("health-observed.json", in: directory)
    }

    public func load() throws(StorageError) -> [String: String] { try file.load() ?? [:] }

    public func record(_ path: String, fingerprint: String) throws(StorageError) {
        var seen = try load()
        seen[path] = fingerprint
        try file.save(seen)
    }

    public func clear() { file.delete() }
}
