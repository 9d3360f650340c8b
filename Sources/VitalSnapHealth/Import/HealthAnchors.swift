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

    private let file: JSONStateFile<Stored>
    public var path: String { file.path }

    public init(directory: DataDirectory) {
        file = JSONStateFile("health-anchors.json", in: directory)
    }

    public func load() throws(StorageError) -> Stored { try file.load() ?? Stored() }

    public func save(_ stored: Stored) throws(StorageError) { try file.save(stored) }

    public func clear() { file.delete() }
}
