import Foundation
import VitalSnapCore
import VitalSnapIngestStub
import VitalSnapRecords
import XCTest

/// The uploader against a real HTTP server on loopback, told to fail in the ways real servers do.
final class UploaderTests: XCTestCase {
    private let token = "token-1234567890"
    private let fast = UploadPolicy(requestTimeout: 2, initialDelay: 0.01, maximumDelay: 0.05, maximumAttempts: 4)

    private func startServer() throws -> IngestionStubServer {
        let server = IngestionStubServer(expectedToken: token)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func session(_ server: IngestionStubServer, token: String? = nil) -> UserSession {
        UserSession(userID: "u1", organizationID: "org1", accessToken: token ?? self.token, endpoint: server.baseURL)
    }

    private func upload(_ queue: UploadQueue, _ session: UserSession, policy: UploadPolicy? = nil) async throws
        -> (Uploader.Summary, [UploadEvent])
    {
        let uploader = Uploader(queue: queue, session: session, policy: policy ?? fast)
        async let collected = uploader.events.reduce(into: [UploadEvent]()) { $0.append($1) }
        let summary = try await uploader.uploadAll()
        return (summary, await collected)
    }

    func testEveryRecordArrivesOnceInOrderWithItsImageAfterIt() async throws {
        let server = try startServer()
        let queue = try UploadQueue(directory: makeDataDirectory())
        let image = Data([0xFF, 0xD8] + (0..<5000).map { UInt8(($0 * 7) & 0xFF) })
        let records = try (0..<5).map { try glucose(Double(90 + $0)) }
        for (i, record) in records.enumerated() { try queue.submit(record, image: i == 2 ? image : nil, owner: "org1/u1") }

        let (summary, events) = try await upload(queue, session(server))

        XCTAssertEqual(server.storedRecords.map(\.activityID), records.map(\.activityID))
        XCTAssertEqual(server.storedRecords.map { $0.json["blood_glucose"] }, ["90", "91", "92", "93", "94"])
        XCTAssertEqual(server.duplicateDeliveries, 0)
        XCTAssertEqual(server.storedMedia[server.storedRecords[2].serverID], image)
        XCTAssertEqual(summary.recordsSubmitted, 5)
        XCTAssertEqual(summary.imagesSubmitted, 1)
        XCTAssertEqual(summary.remaining, 0)
        XCTAssertNil(summary.stoppedBecause)
        XCTAssertEqual(try queue.count(), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: queue.directory.imagesFolder), [])
        XCTAssertEqual(events.map(\.name), ["recordSubmitted", "recordSubmitted", "recordSubmitted", "imageSubmitted", "recordSubmitted", "recordSubmitted"])
        guard case .imageSubmitted(let id, let media, let url) = events[3] else { return XCTFail("\(events[3])") }
        XCTAssertEqual(id, records[2].activityID)
        XCTAssertFalse(media.isEmpty)
        XCTAssertNotNil(url)
    }

    func testABadRequestDiscardsThatRecordAndTheNextOnesStillGo() async throws {
        let server = try startServer()
        let queue = try UploadQueue(directory: makeDataDirectory())
        let records = try (0..<3).map { try glucose(Double(100 + $0)) }
        for record in records { try queue.submit(record, owner: "org1/u1") }
        let refused = records[1].activityID
        server.setFaultPlan { $0.activityID == refused ? .status(400, message: "blood_glucose is invalid") : nil }

        let (summary, events) = try await upload(queue, session(server))

        XCTAssertEqual(server.storedRecords.map(\.activityID), [records[0].activityID, records[2].activityID])
        XCTAssertEqual(summary.recordsRejected, 1)
        XCTAssertEqual(try queue.count(), 0)
        XCTAssertEqual(try queue.rejected().map(\.activityID), [refused])
        XCTAssertEqual(try queue.rejected().first?.message, "blood_glucose is invalid")
        XCTAssertTrue(events.contains(.recordSubmissionFailed(activityID: refused, type: .diabetes, status: 400, message: "blood_glucose is invalid")))
    }

    func testRefusedCredentialsPauseTheQueueWithoutDiscardingAnything() async throws {
        let server = try startServer()
        let queue = try UploadQueue(directory: makeDataDirectory())
        for value in [100.0, 101] { try queue.submit(try glucose(value), owner: "org1/u1") }

        let (summary, events) = try await upload(queue, session(server, token: "wrong"))
        XCTAssertEqual(events.map(\.name), ["queuePaused"])
        XCTAssertEqual(summary.remaining, 2)
        XCTAssertNotNil(try queue.pauseReason())

        // Paused: the next run sends nothing, even with the right token, until the queue is resumed.
        let requestsBefore = server.requests
        let (second, _) = try await upload(queue, session(server))
        XCTAssertEqual(server.requests, requestsBefore)
        XCTAssertTrue(second.stoppedBecause?.contains("paused") ?? false)

        try queue.resume()
        let (third, _) = try await upload(queue, session(server))
        XCTAssertEqual(third.recordsSubmitted, 2)
        XCTAssertEqual(server.storedRecords.count, 2)
    }

    func testServerErrorsTimeoutsAndDroppedConnectionsAreRetriedAndStoredOnce() async throws {
        let server = try startServer()
        let queue = try UploadQueue(directory: makeDataDirectory())
        let records = try (0..<4).map { try glucose(Double(120 + $0)) }
        for record in records { try queue.submit(record, owner: "org1/u1") }
        // Request 0: 500. 1: 503. 2: answered after the client gave up. 3: dropped after the body.
        // 4: stored, then dropped before the answer. Afterwards the server behaves.
        server.setFaultPlan { request in
            switch request.index {
            case 0: .status(500, message: "internal error")
            case 1: .status(503, message: "unavailable")
            case 2: .delay(4)
            case 3: .dropAfterBody
            case 4: .storeThenDrop
            default: nil
            }
        }
        // Generous limits: a loaded machine may fail an attempt of its own, which must not fail the test.
        let policy = UploadPolicy(requestTimeout: 2, initialDelay: 0.01, maximumDelay: 0.05, maximumAttempts: 20)
        let (summary, events) = try await upload(queue, session(server), policy: policy)

        XCTAssertEqual(Set(server.storedRecords.map(\.activityID)), Set(records.map(\.activityID)))
        XCTAssertEqual(server.storedRecords.count, 4, "each record stored exactly once")
        XCTAssertEqual(server.storedRecords.map(\.activityID), records.map(\.activityID), "in order")
        XCTAssertGreaterThanOrEqual(server.duplicateDeliveries, 1, "the record stored before the drop came again")
        XCTAssertEqual(summary.recordsSubmitted, 4)
        XCTAssertEqual(try queue.count(), 0)
        XCTAssertGreaterThanOrEqual(events.filter { $0.name == "retryScheduled" }.count, 5)
    }

    func testARefusedConnectionKeepsTheRecordsAndReportsWhy() async throws {
        let server = try startServer()
        let endpoint = server.baseURL
        server.stop()
        let queue = try UploadQueue(directory: makeDataDirectory())
        try queue.submit(try glucose(100), image: Data([0xFF, 0xD8, 0]), owner: "org1/u1")
        let session = UserSession(userID: "u1", organizationID: "org1", accessToken: token, endpoint: endpoint)

        let (summary, events) = try await upload(queue, session)

        XCTAssertEqual(summary.remaining, 1)
        XCTAssertTrue(summary.stoppedBecause?.contains("refused") ?? false, summary.stoppedBecause ?? "nil")
        XCTAssertEqual(events.filter { $0.name == "retryScheduled" }.count, fast.maximumAttempts - 1)
        let item = try XCTUnwrap(queue.pending().first)
        XCTAssertEqual(item.attempts, fast.maximumAttempts)
        XCTAssertNotNil(item.imagePath.flatMap { FileManager.default.contents(atPath: $0) })
    }

    func testOnlyTheSessionUsersRecordsAreSent() async throws {
        let server = try startServer()
        let queue = try UploadQueue(directory: makeDataDirectory())
        try queue.submit(try glucose(100), owner: "org1/someone-else")
        let mine = try glucose(101)
        try queue.submit(mine, owner: "org1/u1")
        _ = try await upload(queue, session(server))
        XCTAssertEqual(server.storedRecords.map(\.activityID), [mine.activityID])
        XCTAssertEqual(try queue.count(), 1)
    }

    func testBackoffGrowsExponentiallyWithJitterAndACap() {
        let policy = UploadPolicy(initialDelay: 1, maximumDelay: 8)
        var random = SystemRandomNumberGenerator()
        for attempt in 1...6 {
            let full = min(8, pow(2, Double(attempt - 1)))
            let delays = (0..<200).map { _ in policy.delay(beforeRetry: attempt, using: &random) }
            XCTAssertGreaterThanOrEqual(delays.min()!, full / 2)
            XCTAssertLessThanOrEqual(delays.max()!, full)
            XCTAssertGreaterThan(Set(delays).count, 100, "jittered")
        }
    }
}
