import Foundation
import VitalSnapCore
import VitalSnapIngestStub
import VitalSnapRecords
import XCTest

/// The stub as the uploader's tests rely on it, seen on the wire: answers, faults that drop the connection without
/// a byte, hostile requests that get an error answer and leave the server serving, and stopping.
final class IngestionStubServerTests: XCTestCase {
    private let token = "token-1"
    private let recordPath = "/v1/organizations/o/users/u/diabetes.json"

    private func startServer(token: String? = "token-1") throws -> IngestionStubServer {
        let server = IngestionStubServer(expectedToken: token)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func recordBody(_ activityID: String, value: Int = 100, token: String? = nil) -> Data {
        Data(#"{"authentication_token":"\#(token ?? self.token)","diabetes":{"activity_id":"\#(activityID)","blood_glucose":\#(value),"source":"t"}}"#.utf8)
    }

    private func post(_ server: IngestionStubServer, _ path: String, body: Data, headers: [(String, String)]? = nil, close: Bool = true)
        throws -> (bytes: Data, ending: RawConnection.Ending)
    {
        let headers = headers ?? [("Content-Type", "application/json"), ("X-Validic-Mobile-Token", token)]
        return try RawConnection.exchange(port: server.port, RawConnection.request("POST", path, headers: headers, body: body, close: close))
    }

    private func answer(_ exchange: (bytes: Data, ending: RawConnection.Ending), file: StaticString = #filePath, line: UInt = #line)
        throws -> RawAnswer
    {
        try XCTUnwrap(RawAnswer(exchange.bytes), "no HTTP answer in \(exchange.bytes.count) bytes", file: file, line: line)
    }

    // MARK: - Answers

    func testARecordIsStoredOnceAndAnsweredWithItsServerID() throws {
        let server = try startServer()
        XCTAssertNotEqual(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)/v1")

        let first = try answer(post(server, recordPath, body: recordBody("a1")))
        XCTAssertEqual(first.status, 201)
        XCTAssertEqual(first.headers["content-type"], "application/json")
        let record = try XCTUnwrap(first.json?["diabetes"] as? [String: Any])
        let serverID = try XCTUnwrap(record["_id"] as? String)
        XCTAssertEqual(serverID.count, 24)
        XCTAssertEqual(record["activity_id"] as? String, "a1")
        XCTAssertEqual(first.json?["code"] as? Int, 201)

        let again = try answer(post(server, recordPath, body: recordBody("a1", value: 101)))
        XCTAssertEqual(again.status, 201)
        XCTAssertEqual((again.json?["diabetes"] as? [String: Any])?["_id"] as? String, serverID)
        XCTAssertEqual(server.storedRecords.map(\.activityID), ["a1"])
        XCTAssertEqual(server.storedRecords.first?.json["blood_glucose"], "100")
        XCTAssertEqual(server.storedRecords.first?.serverID, serverID)
        XCTAssertEqual(server.duplicateDeliveries, 1)
        XCTAssertEqual(server.requests, 2)
    }

    func testRequestsOnOneKeptAliveConnectionAreEachAnswered() throws {
        let server = try startServer()
        let one = RawConnection.request(
            "POST", recordPath, headers: [("X-Validic-Mobile-Token", token)], body: recordBody("k1"), close: false)
        let two = RawConnection.request("POST", recordPath, headers: [("X-Validic-Mobile-Token", token)], body: recordBody("k2"))
        let exchange = try RawConnection.exchange(port: server.port, one + two)
        XCTAssertEqual(exchange.ending, .closed)
        XCTAssertEqual(String(decoding: exchange.bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 201").count - 1, 2)
        XCTAssertEqual(server.storedRecords.map(\.activityID), ["k1", "k2"])
    }

    func testTheErrorAnswersKeepTheirStatusesAndMessages() throws {
        let server = try startServer()
        let wrongHeader = try answer(post(server, recordPath, body: recordBody("e1"), headers: [("X-Validic-Mobile-Token", "wrong")]))
        XCTAssertEqual(wrongHeader.status, 401)
        XCTAssertEqual(wrongHeader.json?["message"] as? String, "invalid mobile token")

        let wrongBodyToken = try answer(post(server, recordPath, body: recordBody("e1", token: "wrong")))
        XCTAssertEqual(wrongBodyToken.status, 401)
        XCTAssertEqual(wrongBodyToken.json?["message"] as? String, "invalid authentication_token")

        let get = try answer(RawConnection.exchange(
            port: server.port, RawConnection.request("GET", recordPath, headers: [("X-Validic-Mobile-Token", token)])))
        XCTAssertEqual(get.status, 405)

        let noRecord = try answer(post(server, recordPath, body: Data(#"{"authentication_token":"token-1","diabetes":{}}"#.utf8)))
        XCTAssertEqual(noRecord.status, 400)
        XCTAssertEqual(noRecord.json?["message"] as? String, "the body has no diabetes record with an activity_id")

        let notJSON = try answer(post(server, recordPath, body: Data("not json".utf8)))
        XCTAssertEqual(notJSON.status, 401, "the body's token is checked first")

        let unknown = try answer(post(server, "/v1/elsewhere", body: Data()))
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual(unknown.json?["message"] as? String, "no route /v1/elsewhere")

        // Paths that end early, or with `users` as the last part, are unknown routes rather than a crash.
        for path in ["/v1/organizations/o/users", "/v1/organizations/o/users/u", "/organizations/users", "/"] {
            XCTAssertEqual(try answer(post(server, path, body: Data())).status, 404, path)
        }
        XCTAssertTrue(server.storedRecords.isEmpty)
    }

    func testAnyTokenIsAcceptedWhenNoneIsExpected() throws {
        let server = try startServer(token: nil)
        let stored = try answer(post(server, recordPath, body: recordBody("n1", token: "whatever"), headers: []))
        XCTAssertEqual(stored.status, 201)
        XCTAssertEqual(server.storedRecords.count, 1)
    }

    func testMediaIsStoredOnceForAKnownRecordFromTheUploadersBody() throws {
        let server = try startServer()
        let stored = try answer(post(server, recordPath, body: recordBody("m1")))
        let serverID = try XCTUnwrap((stored.json?["diabetes"] as? [String: Any])?["_id"] as? String)
        let image = Data([0xFF, 0xD8] + (0..<70_000).map { UInt8(($0 * 31) & 0xFF) } + Array("\r\n--".utf8))
        let boundary = "Boundary-\(UUID().uuidString)"
        let body = IngestionRoutes.mediaBody(image: image, fileName: "m1.jpg", boundary: boundary)
        let headers = [("Content-Type", "multipart/form-data; boundary=\(boundary)"), ("X-Validic-Mobile-Token", token)]
        let mediaPath = "/v1/organizations/o/users/u/diabetes/\(serverID)/media"

        let first = try answer(post(server, mediaPath, body: body, headers: headers))
        XCTAssertEqual(first.status, 201)
        let media = try XCTUnwrap(first.json?["media"] as? [String: Any])
        XCTAssertEqual(media["id"] as? String, "m000001")
        XCTAssertEqual(media["url"] as? String, "http://127.0.0.1:\(server.port)/media/m000001")
        XCTAssertEqual(server.storedMedia, [serverID: image])

        let again = try answer(post(server, mediaPath, body: body, headers: headers))
        XCTAssertEqual((again.json?["media"] as? [String: Any])?["id"] as? String, "m000001")
        XCTAssertEqual(server.duplicateMediaDeliveries, 1)

        let unknownRecord = try answer(post(server, "/v1/organizations/o/users/u/diabetes/nope/media", body: body, headers: headers))
        XCTAssertEqual(unknownRecord.status, 400)
        XCTAssertEqual(unknownRecord.json?["message"] as? String, "no record nope")

        let noPart = try answer(post(server, mediaPath, body: Data("x".utf8), headers: headers))
        XCTAssertEqual(noPart.status, 400)
        XCTAssertEqual(noPart.json?["message"] as? String, "no media part")
        XCTAssertEqual(server.storedMedia.count, 1)
    }

    // MARK: - Faults

    func testAStatusFaultAnswersWithItsCodeAndMessage() throws {
        let server = try startServer()
        server.setFaultPlan { $0.activityID == "f1" ? .status(503, message: "unavailable") : nil }
        let refused = try answer(post(server, recordPath, body: recordBody("f1")))
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.json?["message"] as? String, "unavailable")
        XCTAssertEqual(refused.json?["code"] as? Int, 503)
        XCTAssertEqual(try answer(post(server, recordPath, body: recordBody("f2"))).status, 201)
        XCTAssertEqual(server.storedRecords.map(\.activityID), ["f2"])
    }

    func testTheFaultPlanSeesEachRequestInOrder() throws {
        let server = try startServer()
        let seen = Seen()
        server.setFaultPlan { seen.append($0); return nil }
        _ = try post(server, recordPath, body: recordBody("p1"))
        _ = try post(server, "/v1/organizations/o/users/u/diabetes/x/media?q=1", body: Data())
        let requests = seen.requests
        XCTAssertEqual(requests.map(\.index), [0, 1])
        XCTAssertEqual(requests.map(\.method), ["POST", "POST"])
        XCTAssertEqual(requests.map(\.path), [recordPath, "/v1/organizations/o/users/u/diabetes/x/media?q=1"])
        XCTAssertEqual(requests.map(\.activityID), ["p1", nil])
        XCTAssertEqual(requests.map(\.isMedia), [false, true])
    }

    func testDropAfterBodyClosesTheConnectionWithoutAByteAndStoresNothing() throws {
        let server = try startServer()
        server.setFaultPlan { _ in .dropAfterBody }
        // No `Connection: close`: only the fault can end this connection.
        let exchange = try post(server, recordPath, body: recordBody("d1"), close: false)
        XCTAssertEqual(exchange.ending, .closed)
        XCTAssertEqual(exchange.bytes.count, 0, String(decoding: exchange.bytes, as: UTF8.self))
        XCTAssertTrue(server.storedRecords.isEmpty)
        XCTAssertEqual(server.requests, 1)
    }

    func testStoreThenDropStoresTheRecordAndClosesWithoutAByte() throws {
        let server = try startServer()
        server.setFaultPlan { $0.index == 0 ? .storeThenDrop : nil }
        let exchange = try post(server, recordPath, body: recordBody("s1"), close: false)
        XCTAssertEqual(exchange.ending, .closed)
        XCTAssertEqual(exchange.bytes.count, 0, String(decoding: exchange.bytes, as: UTF8.self))
        XCTAssertEqual(server.storedRecords.map(\.activityID), ["s1"])

        // The client sends it again, learns its server ID, and the server counts a duplicate.
        let again = try answer(post(server, recordPath, body: recordBody("s1")))
        XCTAssertEqual(again.status, 201)
        XCTAssertEqual(server.duplicateDeliveries, 1)
    }

    func testDroppedConnectionsReachURLSessionAsNoAnswer() async throws {
        let server = try startServer()
        server.setFaultPlan { $0.index < 2 ? ($0.index == 0 ? .dropAfterBody : .storeThenDrop) : nil }
        let client = HTTPClient(timeout: 5)
        let url = server.baseURL.appendingPathComponent("organizations/o/users/u/diabetes.json")
        let headers = ["X-Validic-Mobile-Token": token]
        for expected in ["dropped", "dropped", "answered 201"] {
            let outcome = await client.post(url, body: recordBody("x1"), contentType: "application/json", headers: headers)
            switch outcome {
            case .answered(let status, _): XCTAssertEqual("answered \(status)", expected)
            case .noAnswer(let why): XCTAssertEqual("dropped", expected, why)
            }
        }
        XCTAssertEqual(server.storedRecords.count, 1)
        XCTAssertEqual(server.duplicateDeliveries, 1)
    }

    func testADelayedAnswerComesAfterTheDelay() throws {
        let server = try startServer()
        server.setFaultPlan { _ in .delay(0.3) }
        let started = Date()
        let delayed = try answer(post(server, recordPath, body: recordBody("w1")))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3)
        XCTAssertEqual(delayed.status, 201)
    }

    // MARK: - Hostile requests

    func testABodyOverTheLimitGets413AndTheServerGoesOn() throws {
        let server = try startServer()
        // Declared too large: answered before the body is read.
        let declared = Data("POST \(recordPath) HTTP/1.1\r\nHost: x\r\nContent-Length: \(33 << 20)\r\n\r\n".utf8)
        let early = try answer(RawConnection.exchange(port: server.port, declared))
        XCTAssertEqual(early.status, 413)
        XCTAssertEqual(early.headers["connection"], "close")

        // Chunked, so only reading tells: 33 MiB sent, answered 413 once past 32 MiB.
        var chunked = Data("POST \(recordPath) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0 ..< 33 { chunked += Data("100000\r\n".utf8) + chunk + Data("\r\n".utf8) }
        chunked += Data("0\r\n\r\n".utf8)
        let late = try answer(RawConnection.exchange(port: server.port, chunked))
        XCTAssertEqual(late.status, 413)

        XCTAssertEqual(try answer(post(server, recordPath, body: recordBody("after"))).status, 201)
        XCTAssertEqual(server.storedRecords.map(\.activityID), ["after"])
    }

    func testMalformedRequestsGetAnErrorAnswerAndTheServerGoesOn() throws {
        let server = try startServer()
        let garbage: [Data] = [
            Data("NOT HTTP AT ALL\r\n\r\n".utf8),
            Data("POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\n".utf8),
            Data("POST / HTTP/1.1\r\nContent-Length: 10\r\nContent-Length: 20\r\n\r\n".utf8),
            Data("POST / HTTP/1.1\r\n".utf8) + Data(repeating: UInt8(ascii: "h"), count: 100_000) + Data(": x\r\n\r\n".utf8),
            Data([0, 1, 2, 0xFF, 0xFE, 13, 10, 13, 10]),
        ]
        for bytes in garbage {
            let exchange = try RawConnection.exchange(port: server.port, bytes)
            XCTAssertEqual(exchange.ending, .closed)
            XCTAssertEqual(RawAnswer(exchange.bytes)?.status, 400, String(decoding: bytes.prefix(40), as: UTF8.self))
        }
        // A body cut short by the client: nothing stored, nothing answered, no harm.
        let cut = RawConnection.request("POST", recordPath, headers: [("X-Validic-Mobile-Token", token)], body: recordBody("cut"))
        let fd = try RawConnection.connect(port: server.port)
        _ = cut.prefix(cut.count - 10).withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)

        XCTAssertEqual(try answer(post(server, recordPath, body: recordBody("fine"))).status, 201)
        XCTAssertEqual(server.storedRecords.map(\.activityID), ["fine"])
    }

    // MARK: - Starting and stopping

    func testStopRefusesNewConnectionsAndCanBeCalledTwice() throws {
        let server = try startServer()
        let port = server.port
        XCTAssertFalse(RawConnection.isRefused(port: port))
        server.stop()
        XCTAssertTrue(RawConnection.isRefused(port: port))
        server.stop()
        XCTAssertTrue(RawConnection.isRefused(port: port))
    }

    func testAServerLetGoOfStops() throws {
        var server: IngestionStubServer? = IngestionStubServer()
        try server!.start()
        let port = server!.port
        XCTAssertFalse(RawConnection.isRefused(port: port))
        weak let released = server
        server = nil
        XCTAssertNil(released)
        XCTAssertTrue(RawConnection.isRefused(port: port))
    }

    func testAnOpenConnectionDoesNotKeepNewOnesComingAfterStop() throws {
        let server = try startServer()
        let port = server.port
        let idle = try RawConnection.connect(port: port)
        defer { close(idle) }
        server.stop()
        XCTAssertTrue(RawConnection.isRefused(port: port))
    }

    func testAPortInUseOrAServerAlreadyStartedIsAnError() throws {
        let server = try startServer()
        let other = IngestionStubServer()
        XCTAssertThrowsError(try other.start(port: server.port)) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot listen on 127.0.0.1:\(server.port): "), "\(error)")
        }
        XCTAssertThrowsError(try server.start())
        XCTAssertEqual(try answer(post(server, recordPath, body: recordBody("still"))).status, 201)
    }

    func testAChosenPortIsListenedOnAndOnlyOnLoopback() throws {
        let probe = try startServer()
        let port = probe.port
        probe.stop()
        let server = IngestionStubServer()
        try server.start(port: port)
        defer { server.stop() }
        XCTAssertEqual(server.port, port)
        // Listening sockets on 127.0.0.1 only: the kernel's table shows the address the server bound.
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let portSuffix = String(format: ":%04X", port)
        var listening: [String] = []
        for line in table.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: " ").map(String.init)
            if columns.count > 3, columns[3] == "0A", columns[1].hasSuffix(portSuffix) { listening.append(columns[1]) }
        }
        XCTAssertEqual(listening, [String(format: "0100007F:%04X", port)])
    }
}

/// The fault plan's view of requests, collected from the server's threads.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [IngestionStubServer.Request] = []
    func append(_ request: IngestionStubServer.Request) { lock.withLock { seen.append(request) } }
    var requests: [IngestionStubServer.Request] { lock.withLock { seen } }
}
