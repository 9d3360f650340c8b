import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Hummingbird's basic request context plus the request's connection, which the drop faults close unanswered.
struct StubRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Thrown after a fault closed the connection: the answer Hummingbird makes of it is never written.
struct ClosedWithoutAnswer: Error {}

/// Answers every request the stub receives: one responder for all paths, since the routes take any prefix
/// before `organizations/` and the checks come in a fixed order whatever the path (fault plan, token, method,
/// route), as the uploader's tests expect.
struct IngestionStubResponder: Sendable {
    /// The largest body accepted: big enough for a phone photo.
    static let maximumBody = 32 << 20
    static let tokenHeader = HTTPField.Name("X-Validic-Mobile-Token")!

    let store: IngestionStore

    func respond(to request: Request, context: StubRequestContext) async throws -> Response {
        // The whole body is read before anything is decided, faults included.
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > Self.maximumBody {
            return Self.tooLarge(context)
        }
        let body: Data
        do {
            body = try await request.body.collect(upTo: Self.maximumBody).withUnsafeReadableBytes { Data($0) }
        } catch is NIOTooManyBytesError {
            return Self.tooLarge(context)
        }
        let path = request.head.path ?? ""
        let route = Route(path: path)
        // A record's body, parsed once: its activity_id for the faults, its token and record below.
        let outer: [String: Any]?
        let recordObject: [String: Any]?
        if case .record(let type) = route {
            outer = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            recordObject = outer?[type] as? [String: Any]
        } else {
            (outer, recordObject) = (nil, nil)
        }
        let isMedia = if case .media = route { true } else { false }
        var storeThenDrop = false
        switch store.admit(
            method: request.method.rawValue, path: path, activityID: recordObject?["activity_id"] as? String, isMedia: isMedia)
        {
        case .status(let code, let message)?: return Self.answer(code, ["message": message, "code": code])
        case .delay(let seconds)?:
            if seconds.isFinite, seconds > 0 { try? await Task.sleep(for: .seconds(min(seconds, 86_400))) }
        case .dropAfterBody?: try await Self.closeWithoutAnswer(context)
        case .storeThenDrop?: storeThenDrop = true
        case nil: break
        }
        if let expectedToken = store.expectedToken, request.headers[Self.tokenHeader] != expectedToken {
            return Self.answer(401, ["message": "invalid mobile token", "code": 401])
        }
        guard request.method == .post else { return Self.answer(405, ["message": "method not allowed"]) }
        switch route {
        case .record(let type):
            if let expectedToken = store.expectedToken, outer?["authentication_token"] as? String != expectedToken {
                return Self.answer(401, ["message": "invalid authentication_token", "code": 401])
            }
            guard let record = recordObject, let activityID = record["activity_id"] as? String, !activityID.isEmpty else {
                return Self.answer(400, ["message": "the body has no \(type) record with an activity_id", "code": 400])
            }
            let serverID = store.storeRecord(type: type, activityID: activityID, record: record, body: body)
            if storeThenDrop { try await Self.closeWithoutAnswer(context) }
            var answer = record
            answer["_id"] = serverID
            return Self.answer(201, ["code": 201, "message": "Created", type: answer])
        case .media(let recordID):
            guard let image = Multipart.part(named: "media", in: body, contentType: request.headers[.contentType] ?? "") else {
                return Self.answer(400, ["message": "no media part", "code": 400])
            }
            guard store.knowsRecord(serverID: recordID) else {
                return Self.answer(400, ["message": "no record \(recordID)", "code": 400])
            }
            let mediaID = store.storeMedia(image, serverRecordID: recordID)
            if storeThenDrop { try await Self.closeWithoutAnswer(context) }
            return Self.answer(201, ["media": ["id": mediaID, "url": "http://127.0.0.1:\(store.port)/media/\(mediaID)"]])
        case .unknown:
            return Self.answer(404, ["message": "no route \(path)", "code": 404])
        }
    }

    /// Closes the connection with nothing written on it, then throws so that no answer is written after.
    private static func closeWithoutAnswer(_ context: StubRequestContext) async throws -> Never {
        try? await context.channel.close()
        throw ClosedWithoutAnswer()
    }

    /// 413, then the end of the connection: its output is closed once the answer is written, and what the client
    /// still sends is read and dropped until it closes its side (closing at once could reset the connection before
    /// the client has read the answer).
    private static func tooLarge(_ context: StubRequestContext) -> Response {
        let buffer = json(["message": "the body is larger than \(maximumBody >> 20) MiB", "code": 413])
        let channel = context.channel
        return Response(
            status: .contentTooLarge, headers: [.contentType: "application/json", .connection: "close"],
            body: ResponseBody(contentLength: buffer.readableBytes) { writer in
                try await writer.write(buffer)
                try await writer.finish(nil)
                try? await channel.close(mode: .output)
            })
    }

    private static func answer(_ code: Int, _ object: [String: Any]) -> Response {
        Response(status: status(code), headers: [.contentType: "application/json"], body: .init(byteBuffer: json(object)))
    }

    /// `object` as JSON with sorted keys (the stub's answers are literal dictionaries, which always encode).
    private static func json(_ object: [String: Any]) -> ByteBuffer {
        ByteBuffer(bytes: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8))
    }

    /// The status of a code, with its reason phrase where the stub uses it; a fault's code outside 200...599 is
    /// answered as 500.
    private static func status(_ code: Int) -> HTTPResponse.Status {
        switch code {
        case 201: .created
        case 400: .badRequest
        case 401: .unauthorized
        case 404: .notFound
        case 405: .methodNotAllowed
        case 413: .contentTooLarge
        case 500: .internalServerError
        case 503: .serviceUnavailable
        case 200...599: HTTPResponse.Status(code: code)
        default: .internalServerError
        }
    }

    /// The routes: `.../organizations/{org}/users/{user}/{type}.json` and `.../{type}/{record_id}/media`.
    enum Route {
        case record(type: String)
        case media(recordID: String)
        case unknown

        init(path: String) {
            let parts = path.split(separator: "?").first.map { $0.split(separator: "/").map(String.init) } ?? []
            guard let users = parts.lastIndex(of: "users"), users >= 2, parts[users - 2] == "organizations",
                  users + 2 <= parts.count
            else {
                self = .unknown
                return
            }
            let rest = Array(parts[(users + 2)...])
            if rest.count == 1, rest[0].hasSuffix(".json") {
                self = .record(type: String(rest[0].dropLast(5)))
            } else if rest.count == 3, rest[2] == "media" {
                self = .media(recordID: rest[1])
            } else {
                self = .unknown
            }
        }
    }
}
