import Foundation
import VitalSnapIngestStub
import XCTest

/// `health subscribe`, `import` and `observe` as a user runs them, uploading to the ingestion stub.
final class HealthCLITests: XCTestCase {
    private let token = "health-token-0042"

    private func run(_ arguments: [String], in folder: URL) throws -> CLI.Output {
        try CLI.run(arguments + ["--data-dir", folder.appendingPathComponent("data").path], in: folder)
    }

    private func export(_ body: String) -> Data {
        Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n").utf8)
    }

    private func glucose(_ value: Int, _ time: String) -> String {
        " <Record type=\"HKQuantityTypeIdentifierBloodGlucose\" sourceName=\"Contour\" unit=\"mg/dL\" creationDate=\"\(time)\" startDate=\"\(time)\" endDate=\"\(time)\" value=\"\(value)\"/>\n"
    }

    func testImportUploadsOnlyWhatIsSubscribedAndASecondImportSendsNothingMore() throws {
        let server = IngestionStubServer(expectedToken: token)
        try server.start()
        defer { server.stop() }
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("export.xml")
        try export(glucose(101, "2026-03-05 07:10:00 -0500") + glucose(140, "2026-03-05 12:00:00 -0500")
            + " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" creationDate=\"2026-03-05 07:00:00 -0500\" startDate=\"2026-03-05 07:00:00 -0500\" endDate=\"2026-03-05 07:00:00 -0500\" value=\"61\"/>\n")
            .write(to: file)

        let none = try run(["health", "import", file.path], in: folder)
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("subscribe"), none.stderr)

        XCTAssertEqual(try run(["session", "start", "--user", "u1", "--org", "o1", "--token", token, "--endpoint", server.baseURL.absoluteString], in: folder).status, 0)
        XCTAssertEqual(try run(["health", "subscribe", "--sets", "diabetes"], in: folder).status, 0)
        let first = try run(["health", "import", file.path, "--json"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("\"queued\":{\"diabetes\":2}"), first.stdout)
        XCTAssertEqual(server.storedRecords.map { $0.json["blood_glucose"] }, ["101", "140"])

        let second = try run(["health", "import", file.path, "--events", "jsonl"], in: folder)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.lines.count, 1, second.stdout)
        XCTAssertTrue(second.stdout.contains("\"queued\":{}"), second.stdout)
        XCTAssertEqual(server.storedRecords.count, 2)
        XCTAssertEqual(server.duplicateDeliveries, 0)

        XCTAssertEqual(try run(["session", "end", "--yes"], in: folder).status, 0)
        XCTAssertTrue(try run(["health", "subscriptions"], in: folder).stdout.contains("no subscriptions"))
    }

    func testABrokenExportExitsTwoNamingTheLineAndKeepsWhatCameBefore() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("export.xml")
        try export(glucose(101, "2026-03-05 07:10:00 -0500") + " <Record type=\"x\n <Broken>\n" + glucose(99, "2026-03-06 07:10:00 -0500"))
            .write(to: file)
        XCTAssertEqual(try run(["health", "subscribe", "--sets", "diabetes"], in: folder).status, 0)
        let result = try run(["health", "import", file.path], in: folder)
        XCTAssertEqual(result.status, 2, result.stderr)
        // The attribute left open on line 4 is found broken at the '<' on line 5.
        XCTAssertTrue(result.stderr.contains("broken at line 4") || result.stderr.contains("broken at line 5"), result.stderr)
        XCTAssertEqual(try run(["queue", "list"], in: folder).lines.count, 1)
    }

    func testObserveImportsWhatArrivesAndAfterARestartOnlyWhatCameMeanwhile() throws {
        let folder = try makeTemporaryFolder()
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        XCTAssertEqual(try run(["health", "subscribe", "--sets", "diabetes"], in: folder).status, 0)
        try export(glucose(101, "2026-03-05 07:10:00 -0500")).write(to: inbox.appendingPathComponent("first.xml"))
        let data = ["--data-dir", folder.appendingPathComponent("data").path]

        var observer = try BackgroundCLI(["health", "observe", inbox.path, "--events", "jsonl"] + data, in: folder)
        XCTAssertTrue(observer.waitForLine(timeout: 20) { $0.contains("first.xml") }, observer.output)
        // A new export, written elsewhere and moved in whole, as a download finishes.
        let staged = folder.appendingPathComponent("second.xml")
        try export(glucose(101, "2026-03-05 07:10:00 -0500") + glucose(120, "2026-03-07 07:10:00 -0500")).write(to: staged)
        try FileManager.default.moveItem(at: staged, to: inbox.appendingPathComponent("second.xml"))
        XCTAssertTrue(observer.waitForLine(timeout: 20) { $0.contains("second.xml") && $0.contains("\"diabetes\":1") }, observer.output)
        XCTAssertEqual(observer.terminate(), 0, observer.output)

        // Stopped; a third export arrives; started again: only the third is imported.
        try export(glucose(130, "2026-03-08 07:10:00 -0500")).write(to: inbox.appendingPathComponent("third.xml"))
        observer = try BackgroundCLI(["health", "observe", inbox.path, "--events", "jsonl"] + data, in: folder)
        XCTAssertTrue(observer.waitForLine(timeout: 20) { $0.contains("third.xml") }, observer.output)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(observer.terminate(), 0, observer.output)
        XCTAssertEqual(observer.lines.filter { $0.contains("health_import") }.count, 1, observer.output)
        XCTAssertEqual(try run(["queue", "list"], in: folder).lines.count, 3)
    }
}
