import VitalSnapRecords

/// What one value read from a device became: a record for the upload queue, or the reason there is none.
public enum BLEReadingOutcome: Equatable, Sendable {
    case record(Record)
    case skipped(BLESkippedReading)

    public var record: Record? {
        if case .record(let record) = self { record } else { nil }
    }

    public var skipped: BLESkippedReading? {
        if case .skipped(let reason) = self { reason } else { nil }
    }
}
