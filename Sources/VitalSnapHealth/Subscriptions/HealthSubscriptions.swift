import Foundation
import VitalSnapCore

/// What the person subscribed to (`health-subscriptions.json` in the data directory): sets and single types.
/// Only subscribed types are imported; a new session starts with none, and `session end` removes them.
public struct HealthSubscriptions: Sendable {
    public struct Stored: Codable, Equatable, Sendable {
        public var sets: [HealthSubscriptionSet] = []
        public var types: [String] = []

        public init(sets: [HealthSubscriptionSet] = [], types: [String] = []) {
            self.sets = sets
            self.types = types
        }

        /// Every HealthKit identifier subscribed, by a set or alone.
        public var identifiers: Set<String> { Set(sets.flatMap(\.identifiers)).union(types) }

        public var isEmpty: Bool { sets.isEmpty && types.isEmpty }
    }

    public let path: String
    private let directory: DataDirectory

    public init(directory: DataDirectory) {
        self.directory = directory
        path = directory.path + "/health-subscriptions.json"
    }

    public func load() throws(StorageError) -> Stored {
        guard let data = try DurableFile.read(path) else { return Stored() }
        do { return try JSONDecoder().decode(Stored.self, from: data) } catch {
            throw .cannotRead(path: path, reason: "not the expected JSON (\(error)); `vitalsnap health unsubscribe --all` starts afresh")
        }
    }

    public func save(_ stored: Stored) throws(StorageError) {
        if stored.isEmpty {
            clear()
            return
        }
        try directory.create()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(stored) else { return }
        try DurableFile.write(data, to: path, mode: 0o600)
    }

    public func clear() { unlink(path) }
}
