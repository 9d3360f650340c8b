import Foundation
import VitalSnapCore

/// What was already delivered, per type (`health-anchors.json` in the data directory), so a later export, which
/// repeats everything before it, queues only what is new:
/// - samples, correlations and workouts: the latest creation date delivered per HealthKit type (a sample synced
///   late has an old start but a new creation date, so it still counts as new);
/// - daily totals: the last day delivered per record family, with a digest of each of that day's records (that
///   day was probably still going: its total is queued again only if it changed, under the same activity ID).
public struct HealthAnchors: Sendable {
    public struct Stored: Codable, Equatable, Sendable {
        /// HealthKit type → seconds since 1970 of the latest creation date delivered.
        public var created: [String: Int64] = [:]
        /// Record family (`routine`, `nutrition`, `sleep`) → the last day delivered.
        public var days: [String: DayAnchor] = [:]
        /// The export last imported: where `health history` reads by default.
        public var lastExport: String?

        public init() {}
    }

    public struct DayAnchor: Codable, Equatable, Sendable {
        public var day: String
        /// Activity ID → digest of the record delivered for it.
        public var digests: [String: String]
    }

    public let path: String
    private let directory: DataDirectory

    public init(directory: DataDirectory) {
        self.directory = directory
        path = directory.path + "/health-anchors.json"
    }

    public func load() throws(StorageError) -> Stored {
        guard let data = try DurableFile.read(path) else { return Stored() }
        do { return try JSONDecoder().decode(Stored.self, from: data) } catch {
            throw .cannotRead(path: path, reason: "not the expected JSON (\(error)); remove it to deliver everything again")
        }
    }

    public func save(_ stored: Stored) throws(StorageError) {
        try directory.create()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(stored) else { return }
        try DurableFile.write(data, to: path, mode: 0o600)
    }

    public func clear() { unlink(path) }
}
