import Foundation

/// What the stub has received: records deduplicated by activity ID, media by server record ID, the counts the
/// tests read, and the fault plan. Shared by the server object and its responder; every access under one lock.
final class IngestionStore: @unchecked Sendable {
    typealias Fault = IngestionStubServer.Fault
    typealias StoredRecord = IngestionStubServer.StoredRecord

    let expectedToken: String?

    private let lock = NSLock()
    private var _port: UInt16 = 0
    private var faultPlan: @Sendable (IngestionStubServer.Request) -> Fault? = { _ in nil }
    private var _records: [StoredRecord] = []
    private var serverIDs: [String: String] = [:]  // activity ID -> server ID
    private var mediaByRecord: [String: (id: String, bytes: Data)] = [:]
    private var requestCount = 0
    private var duplicates = 0
    private var mediaDuplicates = 0

    init(expectedToken: String?) {
        self.expectedToken = expectedToken
    }

    var port: UInt16 {
        get { lock.withLock { _port } }
        set { lock.withLock { _port = newValue } }
    }

    var records: [StoredRecord] { lock.withLock { _records } }
    var duplicateDeliveries: Int { lock.withLock { duplicates } }
    var requests: Int { lock.withLock { requestCount } }
    var media: [String: Data] { lock.withLock { mediaByRecord.mapValues(\.bytes) } }
    var duplicateMediaDeliveries: Int { lock.withLock { mediaDuplicates } }

    func setFaultPlan(_ plan: @escaping @Sendable (IngestionStubServer.Request) -> Fault?) {
        lock.withLock { faultPlan = plan }
    }

    /// Counts a request and asks the fault plan about it (outside the lock: the plan is the caller's code).
    func admit(method: String, path: String, activityID: String?, isMedia: Bool) -> Fault? {
        let (request, plan) = lock.withLock {
            let request = IngestionStubServer.Request(
                method: method, path: path, activityID: activityID, isMedia: isMedia, index: requestCount)
            requestCount += 1
            return (request, faultPlan)
        }
        return plan(request)
    }

    /// Stores the first delivery of an activity ID; a later one counts as a duplicate and gets the first's server ID.
    func storeRecord(type: String, activityID: String, record: [String: Any], body: Data) -> String {
        lock.withLock {
            if let existing = serverIDs[activityID] {
                duplicates += 1
                return existing
            }
            let id = String(format: "%024x", _records.count + 1)
            serverIDs[activityID] = id
            var fields: [String: String] = [:]
            for (key, value) in record {
                switch value {
                case let s as String: fields[key] = s
                case let n as NSNumber: fields[key] = n.stringValue
                default: break
                }
            }
            _records.append(StoredRecord(type: type, activityID: activityID, serverID: id, json: fields, body: body))
            return id
        }
    }

    func knowsRecord(serverID: String) -> Bool {
        lock.withLock { serverIDs.values.contains(serverID) }
    }

    /// Stores the first image of a record; a later one counts as a duplicate and gets the first's media ID.
    func storeMedia(_ bytes: Data, serverRecordID: String) -> String {
        lock.withLock {
            if let existing = mediaByRecord[serverRecordID] {
                mediaDuplicates += 1
                return existing.id
            }
            let id = String(format: "m%06d", mediaByRecord.count + 1)
            mediaByRecord[serverRecordID] = (id, bytes)
            return id
        }
    }
}
