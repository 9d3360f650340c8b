import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on loopback that implements the mobile ingestion and media routes the way the uploader
/// uses them, deduplicates records by activity ID, counts what it received, and can be told to misbehave.
///
/// For tests, benchmarks and trying VitalSnap without a Validic account (`vitalsnap serve-ingestion`). One thread
/// per connection, `Connection: close` on every answer: simple rather than fast.
public final class IngestionStubServer: @unchecked Sendable {
    /// What to do with one request instead of answering it normally.
    public enum Fault: Sendable, Equatable {
        /// Answer with this status and a JSON body carrying `message`.
        case status(Int, message: String)
        /// Wait this long before answering normally (past the client's timeout, the client gives up).
        case delay(TimeInterval)
        /// Read the whole request, store nothing, close the connection without a word.
        case dropAfterBody
        /// Store the record, then close the connection without an answer (the client cannot know it arrived).
        case storeThenDrop
    }

    /// One request as the fault plan sees it.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// The record's activity ID, for record routes with a readable body.
        public var activityID: String?
        public var isMedia: Bool
        /// How many requests came before this one.
        public var index: Int
    }

    /// A record as stored: the first delivery of its activity ID.
    public struct StoredRecord: Sendable {
        public var type: String
        public var activityID: String
        public var serverID: String
        public var json: [String: String]  // top-level scalar fields as text, enough for tests to check
        public var body: Data
    }

    public private(set) var port: UInt16 = 0
    /// The token records must carry (header and body); nil accepts any.
    public let expectedToken: String?

    private let lock = NSLock()
    private var listener: Int32 = -1
    private var faultPlan: @Sendable (Request) -> Fault? = { _ in nil }
    private var records: [StoredRecord] = []
    private var serverIDs: [String: String] = [:]  // activity ID -> server ID
    private var mediaByRecord: [String: (id: String, bytes: Data)] = [:]
    private var requestCount = 0
    private var duplicates = 0
    private var mediaDuplicates = 0

    public init(expectedToken: String? = nil) {
        self.expectedToken = expectedToken
    }

    deinit { stop() }

    // MARK: - Observations

    public var storedRecords: [StoredRecord] { lock.withLock { records } }
    /// Deliveries of an activity ID already stored (answered with the stored record, not stored again).
    public var duplicateDeliveries: Int { lock.withLock { duplicates } }
    public var requests: Int { lock.withLock { requestCount } }
    /// Media stored, by the server's record ID.
    public var storedMedia: [String: Data] { lock.withLock { mediaByRecord.mapValues(\.bytes) } }
    public var duplicateMediaDeliveries: Int { lock.withLock { mediaDuplicates } }

    public func setFaultPlan(_ plan: @escaping @Sendable (Request) -> Fault?) {
        lock.withLock { faultPlan = plan }
    }

    // MARK: - Running

    /// Listens on 127.0.0.1 (`port` 0 picks a free one; read `port` after).
    public func start(port requested: UInt16 = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServerError("cannot listen on 127.0.0.1:\(requested): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        lock.withLock { listener = fd }
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "ingestion-stub-accept"
        thread.start()
    }

    /// Stops listening: new connections are refused from now on.
    public func stop() {
        let fd = lock.withLock { () -> Int32 in
            let fd = listener
            listener = -1
            return fd
        }
        if fd >= 0 {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/v1")! }

    private func acceptLoop(_ fd: Int32) {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return  // closed by stop()
            }
            let thread = Thread { [self] in
                handle(client)
                close(client)
            }
            thread.start()
        }
    }

    // MARK: - HTTP

    private func handle(_ fd: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = HTTPRequest.read(from: fd) else { return }
        let (status, body, drop) = respond(to: request)
        if drop { return }
        let reason = status < 300 ? "OK" : "Error"
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        if status == 201 { head = head.replacingOccurrences(of: " OK\r\n", with: " Created\r\n") }
        var bytes = Data(head.utf8)
        bytes.append(body)
        bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                sent += n
            }
        }
    }

    private func respond(to http: HTTPRequest) -> (Int, Data, drop: Bool) {
        let route = Route(path: http.path)
        let recordObject: [String: Any]?
        if case .record(let type) = route {
            recordObject = (try? JSONSerialization.jsonObject(with: http.body) as? [String: Any])?[type] as? [String: Any]
        } else {
            recordObject = nil
        }
        let (request, plan): (Request, @Sendable (Request) -> Fault?) = lock.withLock {
            let request = Request(
                method: http.method, path: http.path, activityID: recordObject?["activity_id"] as? String,
                isMedia: { if case .media = route { true } else { false } }(), index: requestCount)
            requestCount += 1
            return (request, faultPlan)
        }
        var storeThenDrop = false
        switch plan(request) {
        case .status(let code, let message)?: return (code, Self.json(["message": message, "code": code]), false)
        case .delay(let seconds)?: Thread.sleep(forTimeInterval: seconds)
        case .dropAfterBody?: return (0, Data(), true)
        case .storeThenDrop?: storeThenDrop = true
        case nil: break
        }
        if let expectedToken, http.headers["x-validic-mobile-token"] != expectedToken {
            return (401, Self.json(["message": "invalid mobile token", "code": 401]), false)
        }
        guard http.method == "POST" else { return (405, Self.json(["message": "method not allowed"]), false) }
        switch route {
        case .record(let type):
            let outer = try? JSONSerialization.jsonObject(with: http.body) as? [String: Any]
            if let expectedToken, outer?["authentication_token"] as? String != expectedToken {
                return (401, Self.json(["message": "invalid authentication_token", "code": 401]), false)
            }
            guard let record = recordObject, let activityID = record["activity_id"] as? String, !activityID.isEmpty else {
                return (400, Self.json(["message": "the body has no \(type) record with an activity_id", "code": 400]), false)
            }
            let (serverID, _) = store(type: type, activityID: activityID, record: record, body: http.body)
            if storeThenDrop { return (0, Data(), true) }
            var answer = record
            answer["_id"] = serverID
            return (201, Self.json(["code": 201, "message": "Created", type: answer]), false)
        case .media(_, let recordID):
            guard let image = Multipart.part(named: "media", in: http.body, contentType: http.headers["content-type"] ?? "") else {
                return (400, Self.json(["message": "no media part", "code": 400]), false)
            }
            let known = lock.withLock { serverIDs.values.contains(recordID) }
            guard known else { return (400, Self.json(["message": "no record \(recordID)", "code": 400]), false) }
            let mediaID = lock.withLock { () -> String in
                if let existing = mediaByRecord[recordID] {
                    mediaDuplicates += 1
                    return existing.id
                }
                let id = String(format: "m%06d", mediaByRecord.count + 1)
                mediaByRecord[recordID] = (id, image)
                return id
            }
            if storeThenDrop { return (0, Data(), true) }
            return (201, Self.json(["media": ["id": mediaID, "url": "http://127.0.0.1:\(port)/media/\(mediaID)"]]), false)
        case .unknown:
            return (404, Self.json(["message": "no route \(http.path)", "code": 404]), false)
        }
    }

    private func store(type: String, activityID: String, record: [String: Any], body: Data) -> (String, duplicate: Bool) {
        lock.withLock {
            if let existing = serverIDs[activityID] {
                duplicates += 1
                return (existing, true)
            }
            let id = String(format: "%024x", records.count + 1)
            serverIDs[activityID] = id
            var fields: [String: String] = [:]
            for (key, value) in record {
                switch value {
                case let s as String: fields[key] = s
                case let n as NSNumber: fields[key] = n.stringValue
                default: break
                }
            }
            records.append(StoredRecord(type: type, activityID: activityID, serverID: id, json: fields, body: body))
            return (id, false)
        }
    }

    private static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    /// The routes: `.../organizations/{org}/users/{user}/{type}.json` and `.../{type}/{record_id}/media`.
    enum Route {
        case record(type: String)
        case media(type: String, recordID: String)
        case unknown

        init(path: String) {
            let parts = path.split(separator: "?").first.map { $0.split(separator: "/").map(String.init) } ?? []
            guard let users = parts.lastIndex(of: "users"), users >= 2, parts[users - 2] == "organizations" else {
                self = .unknown
                return
            }
            let rest = Array(parts[(users + 2)...])
            if rest.count == 1, rest[0].hasSuffix(".json") {
                self = .record(type: String(rest[0].dropLast(5)))
            } else if rest.count == 3, rest[2] == "media" {
                self = .media(type: rest[0], recordID: rest[1])
            } else {
                self = .unknown
            }
        }
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
