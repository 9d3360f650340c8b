import Foundation
import VitalSnapRecords

/// A record waiting in the upload queue, with the image that goes after it.
public struct QueuedRecord: Sendable, Hashable {
    /// Position in the queue: records go in this order.
    public var sequence: Int64
    public var activityID: String
    public var type: RecordType
    /// The record's JSON exactly as it was validated and stored; this is what is sent.
    public var json: Data
    /// The stored image file, nil when the record has none (or its image was already sent or refused).
    public var imagePath: String?
    /// Set once the server accepted the record: only its image is still to go.
    public var serverRecordID: String?
    /// Failed attempts so far (server errors, timeouts, refused connections).
    public var attempts: Int
    public var lastError: String?
    public var queuedAt: Date

    /// The record itself; throws for a row whose JSON no longer decodes.
    public func record() throws -> Record {
        try RecordJSON.decode(json)
    }
}

/// A record the server refused (HTTP 400): out of the queue, kept here so the refusal can be looked at.
public struct RejectedRecord: Sendable, Hashable {
    public var activityID: String
    public var type: RecordType
    public var json: Data
    public var status: Int
    public var message: String
    public var rejectedAt: Date
}
