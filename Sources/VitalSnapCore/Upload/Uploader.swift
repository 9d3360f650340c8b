import Foundation
import Logging
import VitalSnapRecords

/// Sends a session's queued records in order, each record's image after it, and reports every outcome.
///
/// The server's answer decides: 2xx removes the record (`recordSubmitted`); 400 or 422 discards it
/// (`recordSubmissionFailed`) and the next one goes; 401, 403 and 404 pause the queue without discarding anything
/// (the credentials or the endpoint are wrong, and every record would fail the same way); anything else, and no
/// answer at all, keeps the record first in line and retries it after an exponential, jittered delay. After
/// `maximumAttempts` failures the run ends and the record waits for the next one.
public final class Uploader: Sendable {
    public let queue: UploadQueue
    public let session: UserSession
    public let policy: UploadPolicy
    /// Every outcome, as it happens; finished when `uploadAll` returns.
    public let events: AsyncStream<UploadEvent>
    private let continuation: AsyncStream<UploadEvent>.Continuation
    private let client: HTTPClient
    private let routes: IngestionRoutes
    private let logger = Logger(label: "vitalsnap.core")

    public init(queue: UploadQueue, session: UserSession, policy: UploadPolicy = UploadPolicy()) {
        self.queue = queue
        self.session = session
        self.policy = policy
        (events, continuation) = AsyncStream.makeStream(of: UploadEvent.self, bufferingPolicy: .unbounded)
        client = HTTPClient(timeout: policy.requestTimeout)
        routes = IngestionRoutes(session: session)
    }

    /// What one run did.
    public struct Summary: Sendable, Hashable {
        public var recordsSubmitted = 0
        public var recordsRejected = 0
        public var imagesSubmitted = 0
        public var imagesFailed = 0
        /// Still queued for this session's user when the run ended.
        public var remaining = 0
        /// Why the run ended early (paused, or a record that kept failing); nil when the queue emptied.
        public var stoppedBecause: String?

        public init(remaining: Int = 0, stoppedBecause: String? = nil) {
            self.remaining = remaining
            self.stoppedBecause = stoppedBecause
        }
    }

    /// Uploads until the user's queue is empty, the queue is paused, or a record fails `maximumAttempts` times.
    public func uploadAll() async throws(StorageError) -> Summary {
        defer { continuation.finish() }
        var summary = Summary()
        var random = SystemRandomNumberGenerator()
        let owner = session.ownerKey
        // Ends the run early: what is left, and why.
        func stopped(_ why: String) throws(StorageError) -> Summary {
            summary.stoppedBecause = why
            summary.remaining = try queue.count(owner: owner)
            return summary
        }
        if let reason = try queue.pauseReason() {
            return try stopped("uploads are paused: \(reason) (run `vitalsnap queue retry` once it is fixed)")
        }
        var failures = 0
        while let item = try queue.pending(owner: owner, limit: 1).first {
            let step = item.serverRecordID == nil ? await sendRecord(item) : await sendImage(item)
            switch step {
            case .done(let event):
                failures = 0
                try apply(event, to: item, summary: &summary)
            case .pause(let status, let message):
                try queue.pause(reason: "HTTP \(status): \(message)")
                emit(.queuePaused(status: status, message: message))
                return try stopped("uploads paused: HTTP \(status): \(message)")
            case .retry(let reason):
                failures += 1
                try queue.attemptFailed(item, reason: reason)
                if failures >= policy.maximumAttempts {
                    if item.serverRecordID != nil {
                        emit(.imageSubmissionFailed(activityID: item.activityID, status: nil, message: "\(reason); will retry on the next upload"))
                    }
                    return try stopped("\(item.activityID) failed \(failures) times (\(reason)); it stays queued")
                }
                let delay = policy.delay(beforeRetry: failures, using: &random)
                emit(.retryScheduled(activityID: item.activityID, attempt: failures, delay: delay, reason: reason))
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                if Task.isCancelled { return try stopped("cancelled") }
            }
        }
        return summary
    }

    private enum Step {
        case done(UploadEvent)
        case pause(status: Int, message: String)
        case retry(String)
    }

    private func apply(_ event: UploadEvent, to item: QueuedRecord, summary: inout Summary) throws(StorageError) {
        // The queue changes before the event goes out: a listener never hears of a submission a crash could undo.
        switch event {
        case .recordSubmitted(_, _, let serverID):
            try queue.recordAccepted(item, serverRecordID: serverID)
            summary.recordsSubmitted += 1
        case .recordSubmissionFailed(_, _, let status, let message):
            try queue.recordRejected(item, status: status, message: message)
            summary.recordsRejected += 1
        case .imageSubmitted:
            try queue.imageFinished(item)
            summary.imagesSubmitted += 1
        case .imageSubmissionFailed:
            try queue.imageFinished(item)
            summary.imagesFailed += 1
        default:
            break
        }
        emit(event)
    }

    private func emit(_ event: UploadEvent) {
        logger.debug("\(event.description)")
        continuation.yield(event)
    }

    private func sendRecord(_ item: QueuedRecord) async -> Step {
        let body = routes.recordBody(type: item.type, recordJSON: item.json)
        let outcome = await client.post(routes.record(item.type), body: body, contentType: "application/json", headers: routes.headers)
        return Self.step(
            outcome,
            accepted: { data in
                .recordSubmitted(
                    activityID: item.activityID, type: item.type,
                    serverRecordID: Self.serverRecordID(in: data, type: item.type) ?? item.activityID)
            },
            refused: { status, message in
                .recordSubmissionFailed(activityID: item.activityID, type: item.type, status: status, message: message)
            })
    }

    private func sendImage(_ item: QueuedRecord) async -> Step {
        guard let path = item.imagePath, let serverID = item.serverRecordID else {
            return .done(.imageSubmissionFailed(activityID: item.activityID, status: nil, message: "no image"))
        }
        guard let image = FileManager.default.contents(atPath: path) else {
            // Deleted or unreadable behind the queue's back: nothing to send, and retrying will not bring it back.
            return .done(.imageSubmissionFailed(activityID: item.activityID, status: nil, message: "\(path) cannot be read"))
        }
        let boundary = "vitalsnap-\(item.activityID)"
        let body = IngestionRoutes.mediaBody(image: image, fileName: (path as NSString).lastPathComponent, boundary: boundary)
        let outcome = await client.post(
            routes.media(item.type, serverRecordID: serverID), body: body,
            contentType: "multipart/form-data; boundary=\(boundary)", headers: routes.headers)
        return Self.step(
            outcome,
            accepted: { data in
                let (id, url) = Self.media(in: data)
                return .imageSubmitted(activityID: item.activityID, mediaID: id ?? "", url: url)
            },
            refused: { status, message in .imageSubmissionFailed(activityID: item.activityID, status: status, message: message) })
    }

    /// What to do after one exchange, the same for records and images: only the events differ.
    private static func step(
        _ outcome: HTTPOutcome, accepted: (Data) -> UploadEvent, refused: (Int, String) -> UploadEvent
    ) -> Step {
        switch outcome {
        case .noAnswer(let reason):
            return .retry(reason)
        case .answered(let status, let data):
            switch classify(status) {
            case .success: return .done(accepted(data))
            case .refused: return .done(refused(status, message(in: data, status: status)))
            case .pause: return .pause(status: status, message: message(in: data, status: status))
            case .transient: return .retry("HTTP \(status): \(message(in: data, status: status))")
            }
        }
    }

    enum StatusClass { case success, refused, pause, transient }

    static func classify(_ status: Int) -> StatusClass {
        switch status {
        case 200..<300: .success
        case 400, 422: .refused
        case 401, 403, 404: .pause
        default: .transient  // 408, 429, 5xx and anything unexpected: try again later, lose nothing
        }
    }

    /// `{"<type>": {"_id": ...}}` as Validic answers a create; also a top-level `_id` or `id`.
    static func serverRecordID(in data: Data, type: RecordType) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        let inner = object[type.rawValue] as? [String: Any] ?? object
        return Self.text(inner["_id"]) ?? Self.text(inner["id"])
    }

    static func media(in data: Data) -> (id: String?, url: String?) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return (nil, nil) }
        let inner = object["media"] as? [String: Any] ?? object
        return (text(inner["id"]) ?? text(inner["_id"]), text(inner["url"]))
    }

    static func message(in data: Data, status: Int) -> String {
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            for key in ["message", "error", "errors"] {
                if let text = object[key] as? String, !text.isEmpty { return text }
                if let list = object[key] as? [Any], !list.isEmpty { return list.map { "\($0)" }.joined(separator: "; ") }
            }
        }
        let text = String(decoding: data.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "HTTP \(status) with an empty body" : text
    }

    private static func text(_ value: Any?) -> String? {
        switch value {
        case let s as String: s
        case let n as NSNumber: n.stringValue
        default: nil
        }
    }
}

extension UserSession {
    /// Whose records these are in the queue.
    public var ownerKey: String { "\(organizationID)/\(userID)" }
}
