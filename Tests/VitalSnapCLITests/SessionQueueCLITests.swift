import Foundation
import VitalSnapIngestStub
import XCTest

/// `session`, `submit` and `queue` as a user runs them, against the ingestion stub on loopback.
final class SessionQueueCLITests: XCTestCase {
    private let token = "secret-token-0042"

    private func startServer() throws -> IngestionStubServer {
        let server = IngestionStubServer(expectedToken: token)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// Runs vitalsnap with `--data-dir` in `folder/data`.
    private func run(_ arguments: [String], in folder: URL) throws -> CLI.Output {
        try CLI.run(arguments + ["--data-dir", folder.appendingPathComponent("data").path], in: folder)
    }

    private func startSession(_ server: IngestionStubServer, in folder: URL, user: String = "u1", token: String? = nil) throws -> CLI.Output {
        try run(["session", "start", "--user", user, "--org", "org1", "--token", token ?? self.token,
                 "--endpoint", server.baseURL.absoluteString], in: folder)
    }

    func testARecordQueuedWithoutASessionIsUploadedWhenOneStarts() throws {
        let server = try startServer()
        let folder = try makeTemporaryFolder()
        let submitted = try run(["submit", "glucose", "5.6", "--unit", "mmol", "--meal", "before"], in: folder)
        XCTAssertEqual(submitted.status, 0, submitted.stderr)
        XCTAssertTrue(submitted.stderr.contains("no session"), submitted.stderr)
        XCTAssertEqual(try run(["queue", "list"], in: folder).lines.count, 1)
        XCTAssertEqual(server.storedRecords.count, 0)

        let started = try startSession(server, in: folder)
        XCTAssertEqual(started.status, 0, started.stderr)
        XCTAssertEqual(server.storedRecords.count, 1)
        // Stored in mg/dL at full precision; what the meter showed travels in raw_data.
        XCTAssertEqual(server.storedRecords.first?.json["blood_glucose"], "100.8")
        XCTAssertEqual(server.storedRecords.first?.json["relationship_to_meal"], "before")
        XCTAssertEqual(try run(["queue", "list"], in: folder).lines.count, 0)
    }

    func testTheSessionFileIsPrivateAndShowMasksTheToken() throws {
        let server = try startServer()
        let folder = try makeTemporaryFolder()
        XCTAssertEqual(try startSession(server, in: folder).status, 0)
        var info = stat()
        XCTAssertEqual(stat(folder.appendingPathComponent("data/session.json").path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let shown = try run(["session", "show"], in: folder)
        XCTAssertEqual(shown.status, 0)
        XCTAssertFalse(shown.stdout.contains(token), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("0042"), shown.stdout)
    }

    func testReplacingAnotherUsersSessionNeedsConfirmationOffATerminal() throws {
        let server = try startServer()
        server.stop()  // nothing gets uploaded, so the first user's record stays queued
        let folder = try makeTemporaryFolder()
        XCTAssertEqual(try startSession(server, in: folder).status, 0)
        XCTAssertEqual(try run(["submit", "weight", "80.2", "--no-upload"], in: folder).status, 0)

        let refused = try startSession(server, in: folder, user: "u2")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--yes"), refused.stderr)
        XCTAssertTrue(try run(["session", "show"], in: folder).stdout.contains("u1"))
        XCTAssertEqual(try run(["queue", "list"], in: folder).lines.count, 1)

        let replaced = try run(["session", "start", "--user", "u2", "--org", "org1", "--token", token,
                                "--endpoint", server.baseURL.absoluteString, "--yes", "--no-upload"], in: folder)
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertTrue(replaced.stderr.contains("deleted 1 queued record"), replaced.stderr)
        XCTAssertEqual(try run(["queue", "list"], in: folder).lines.count, 0)
    }

    func testAnImplausibleEntryIsRefusedAndNothingIsQueued() throws {
        let folder = try makeTemporaryFolder()
        let result = try run(["submit", "glucose", "5000"], in: folder)
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("outside"), result.stderr)
        let mmolAsMg = try run(["submit", "glucose", "0.4"], in: folder)
        XCTAssertEqual(mmolAsMg.status, 64, mmolAsMg.stderr)
        XCTAssertEqual(try run(["queue", "list"], in: folder).lines.count, 0)
    }

    func testAnUnreachableServerKeepsTheRecordAndExitsWithThree() throws {
        let server = try startServer()
        let folder = try makeTemporaryFolder()
        XCTAssertEqual(try startSession(server, in: folder).status, 0)
        server.stop()
        let result = try run(["submit", "bp", "128/82", "--pulse", "71"], in: folder)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("refused the connection"), result.stderr)
        let upload = try run(["queue", "upload", "--attempts", "1"], in: folder)
        XCTAssertEqual(upload.status, 3)
        XCTAssertTrue(upload.stderr.contains("1 still queued"), upload.stderr)
    }

    func testARefusedTokenPausesUploadsUntilRetry() throws {
        let server = try startServer()
        let folder = try makeTemporaryFolder()
        XCTAssertEqual(try startSession(server, in: folder, token: "wrong").status, 0)
        let first = try run(["submit", "spo2", "97", "--pulse", "64", "--events", "jsonl"], in: folder)
        XCTAssertEqual(first.status, 3, first.stderr)
        let event = try jsonObject(try XCTUnwrap(first.lines.last))
        XCTAssertEqual(event["event"] as? String, "queuePaused")
        XCTAssertEqual(event["status"] as? Int, 401)
        XCTAssertTrue(try run(["queue", "list"], in: folder).stderr.contains("paused"))

        // The right token in a new session of the same user keeps the record and lifts the pause.
        let restarted = try startSession(server, in: folder)
        XCTAssertEqual(restarted.status, 0, restarted.stderr)
        XCTAssertEqual(server.storedRecords.count, 1)
        XCTAssertEqual(server.storedRecords.first?.json["spo2"], "97")
    }

    func testADamagedQueueIsReportedAndKept() throws {
        let folder = try makeTemporaryFolder()
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let junk = Data(String(repeating: "this is not a database. ", count: 300).utf8)
        try junk.write(to: data.appendingPathComponent("queue.sqlite"))
        let result = try run(["submit", "glucose", "104", "--no-upload"], in: folder)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("not a VitalSnap queue"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: data.appendingPathComponent("queue.sqlite")), junk)
    }

    func testEndingTheSessionDeletesItsQueue() throws {
        let server = try startServer()
        server.stop()
        let folder = try makeTemporaryFolder()
        XCTAssertEqual(try startSession(server, in: folder).status, 0)
        XCTAssertEqual(try run(["submit", "temperature", "99.1", "--unit", "F", "--no-upload"], in: folder).status, 0)
        let ended = try run(["session", "end", "--yes"], in: folder)
        XCTAssertEqual(ended.status, 0, ended.stderr)
        XCTAssertTrue(ended.stdout.contains("1 queued record deleted"), ended.stdout)
        XCTAssertEqual(try run(["session", "show"], in: folder).status, 1)
        XCTAssertEqual(try run(["queue", "list"], in: folder).lines.count, 0)
    }

    func testLogCategoriesAreSilentUnlessAskedFor() throws {
        let folder = try makeTemporaryFolder()
        let quiet = try run(["submit", "glucose", "104", "--no-upload"], in: folder)
        XCTAssertFalse(quiet.stderr.contains("vitalsnap.core"), quiet.stderr)
        let logged = try run(["submit", "glucose", "105", "--no-upload", "--log", "core"], in: folder)
        XCTAssertTrue(logged.stderr.contains("vitalsnap.core"), logged.stderr)
        XCTAssertTrue(logged.stderr.contains("queued diabetes"), logged.stderr)
        let otherCategory = try run(["submit", "glucose", "106", "--no-upload", "--log", "ocr"], in: folder)
        XCTAssertFalse(otherCategory.stderr.contains("vitalsnap.core"), otherCategory.stderr)
        XCTAssertEqual(try run(["submit", "glucose", "107", "--log", "cameras"], in: folder).status, 64)
    }
}
