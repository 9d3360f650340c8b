import Foundation
import VitalSnapRecords

/// A record ready for the queue: validated, and encoded as `RecordJSON.encode` writes it. Made where the record
/// is made (an import makes them on a thread of its own), so the thread that writes the queue only stores them.
public struct QueueEntry: Sendable {
    public let activityID: String
    public let type: RecordType
    public let json: Data

    /// Throws `RecordValidationError` for a record the queue would refuse, or the encoder's error.
    public init(_ record: Record) throws {
        try record.validate()
        activityID = record.activityID
        type = record.type
        json = try RecordJSON.encode(record)
    }
}
