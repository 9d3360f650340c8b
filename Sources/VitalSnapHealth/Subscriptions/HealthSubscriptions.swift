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

    private let file: JSONStateFile<Stored>
    public var path: String { file.path }

    public init(directory: DataDirectory) {
        file = JSONStateFile("health-subscriptions.json", in: directory)
    }

    public func load() throws(StorageError) -> Stored { try file.load() ?? Stored() }

    /// Saves the subscriptions; none at all removes the file.
    public func save(_ stored: Stored) throws(StorageError) {
        if stored.isEmpty { clear() } else { try file.save(stored) }
    }

    public func clear() { file.delete() }
}
