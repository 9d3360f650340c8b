import Foundation
import VitalSnapRecords

/// What happened to a queued record or image, as the SDK's session notifications report it.
public enum UploadEvent: Sendable, Hashable {
    /// The server accepted the record (2xx); it left the queue (its image, if any, goes next).
    case recordSubmitted(activityID: String, type: RecordType, serverRecordID: String)
    /// The server refused the record (400): it was discarded from the queue and kept in the rejected list.
    case recordSubmissionFailed(activityID: String, type: RecordType, status: Int, message: String)
    case imageSubmitted(activityID: String, mediaID: String, url: String?)
    /// The image could not be sent: refused for good (`status` 4xx, image dropped) or given up for this run.
    case imageSubmissionFailed(activityID: String, status: Int?, message: String)
    /// A server error, timeout or refused connection: the record stays queued and is tried again after `delay`.
    case retryScheduled(activityID: String, attempt: Int, delay: TimeInterval, reason: String)
    /// The server refused the credentials (401/403) or the endpoint (404): nothing is discarded, uploads wait
    /// until `queue retry` or a new session.
    case queuePaused(status: Int, message: String)

    public var name: String {
        switch self {
        case .recordSubmitted: "recordSubmitted"
        case .recordSubmissionFailed: "recordSubmissionFailed"
        case .imageSubmitted: "imageSubmitted"
        case .imageSubmissionFailed: "imageSubmissionFailed"
        case .retryScheduled: "retryScheduled"
        case .queuePaused: "queuePaused"
        }
    }

    /// One line for people.
    public var description: String {
        switch self {
        case .recordSubmitted(let id, let type, let server): "\(type.rawValue) \(id) submitted (server id \(server))"
        case .recordSubmissionFailed(let id, let type, let status, let message):
            "\(type.rawValue) \(id) refused by the server (HTTP \(status)): \(message); discarded from the queue"
        case .imageSubmitted(let id, let media, let url): "image of \(id) submitted (media \(media)\(url.map { ", \($0)" } ?? ""))"
        case .imageSubmissionFailed(let id, let status, let message):
            "image of \(id) not submitted\(status.map { " (HTTP \($0))" } ?? ""): \(message)"
        case .retryScheduled(let id, let attempt, let delay, let reason):
            "\(id): \(reason); attempt \(attempt) failed, retrying in \(String(format: "%.1f", delay)) s"
        case .queuePaused(let status, let message): "uploads paused (HTTP \(status)): \(message)"
        }
    }

    /// One JSON object for `--events jsonl`.
    public var jsonObject: [String: Any] {
        var object: [String: Any] = ["event": name]
        switch self {
        case .recordSubmitted(let id, let type, let server):
            object["activity_id"] = id; object["record_type"] = type.rawValue; object["server_record_id"] = server
        case .recordSubmissionFailed(let id, let type, let status, let message):
            object["activity_id"] = id; object["record_type"] = type.rawValue; object["status"] = status; object["message"] = message
        case .imageSubmitted(let id, let media, let url):
            object["activity_id"] = id; object["media_id"] = media; object["url"] = url ?? NSNull()
        case .imageSubmissionFailed(let id, let status, let message):
            object["activity_id"] = id; object["status"] = status ?? NSNull(); object["message"] = message
        case .retryScheduled(let id, let attempt, let delay, let reason):
            object["activity_id"] = id; object["attempt"] = attempt; object["delay"] = delay; object["message"] = reason
        case .queuePaused(let status, let message):
            object["status"] = status; object["message"] = message
        }
        return object
    }

    public var jsonLine: String {
        let data = (try? JSONSerialization.data(withJSONObject: jsonObject, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
