/// What an import read and did, for the summary the CLI prints and the event it logs.
public struct HealthImportSummary: Sendable, Equatable {
    /// Top-level samples, correlations and workouts read, per HealthKit type.
    public var elementsByType: [String: Int] = [:]
    /// Records queued now, per record type (`diabetes`, `routine`, ...).
    public var queuedByRecordType: [String: Int] = [:]
    /// Records that were already in the queue (an import run again).
    public var alreadyQueued = 0
    /// Samples that made no record of their own, per reason.
    public var skipped: [String: Int] = [:]
    /// Elements whose required attributes were missing or unreadable.
    public var unreadable = 0
    /// Control characters replaced by spaces (iOS 16 exports).
    public var replacedCharacters = 0
    /// Bytes of the file read.
    public var bytesRead: Int64 = 0
    /// What has been delivered once this import's records are queued: to be saved for the next import.
    public var anchors = HealthAnchors.Stored()
    /// Set when the import stopped early: what was read before is queued, the error says where it stopped.
    public var error: HealthImportError?

    public var elements: Int { elementsByType.values.reduce(0, +) }
    public var queued: Int { queuedByRecordType.values.reduce(0, +) }
}
