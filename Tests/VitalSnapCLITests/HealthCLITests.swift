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

/// `health history`: whole days in range, the SDK's limits, the last export by default.
final class HealthHistoryCLITests: XCTestCase {
    private func run(_ arguments: [String], in folder: URL) throws -> CLI.Output {
        try CLI.run(arguments + ["--data-dir", folder.appendingPathComponent("data").path], in: folder)
    }

    /// `YYYY-MM-DD` of `days` days before today, in this machine's zone (as the command counts).
    private func day(_ daysAgo: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(-Double(daysAgo) * 86_400))
    }

    private func offset() -> String {
        let seconds = TimeZone.current.secondsFromGMT()
        return String(format: "%@%02d%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) / 60 % 60)
    }

    private func steps(_ count: Int, daysAgo: Int, hour: Int) -> String {
        let time = "\(day(daysAgo)) \(String(format: "%02d", hour)):10:00 \(offset())"
        return " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" unit=\"count\" creationDate=\"\(time)\" startDate=\"\(time)\" endDate=\"\(time)\" value=\"\(count)\"/>\n"
    }

    func testOnlyTheDaysAskedForAreQueuedWithinTheSDKsLimits() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("export.xml")
        let workoutTime = "\(day(1)) 07:00:00 \(offset())"
        let body = steps(100, daysAgo: 3, hour: 9) + steps(200, daysAgo: 2, hour: 9) + steps(300, daysAgo: 1, hour: 9)
            + steps(50, daysAgo: 1, hour: 18) + steps(999, daysAgo: 200, hour: 9)
            + " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" sourceName=\"Watch\" creationDate=\"\(workoutTime)\" startDate=\"\(workoutTime)\" endDate=\"\(workoutTime)\"/>\n"
        try Data(("<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n").utf8).write(to: file)

        let summary = try run(["health", "history", "--sets", "summary", "--from", day(2), "--to", day(1), file.path], in: folder)
        XCTAssertEqual(summary.status, 0, summary.stderr)
        XCTAssertTrue(summary.stdout.contains("routine: 2"), summary.stdout)
        XCTAssertFalse(summary.stdout.contains("fitness"), summary.stdout)

        let intraday = try run(["health", "history", "--sets", "intraday,workout", "--from", day(1), "--to", day(1), file.path], in: folder)
        XCTAssertEqual(intraday.status, 0, intraday.stderr)
        // Two hours of steps on that day, and its run.
        XCTAssertTrue(intraday.stdout.contains("routine: 2"), intraday.stdout)
        XCTAssertTrue(intraday.stdout.contains("fitness: 1"), intraday.stdout)

        let tooFar = try run(["health", "history", "--sets", "summary", "--from", day(200), "--to", day(1), file.path], in: folder)
        XCTAssertNotEqual(tooFar.status, 0)
        XCTAssertTrue(tooFar.stderr.contains("179 days"), tooFar.stderr)
        let intradayTooFar = try run(["health", "history", "--sets", "intraday", "--from", day(9), "--to", day(1), file.path], in: folder)
        XCTAssertTrue(intradayTooFar.stderr.contains("7 days"), intradayTooFar.stderr)
        let notADay = try run(["health", "history", "--sets", "summary", "--from", "2026-02-30", "--to", day(1), file.path], in: folder)
        XCTAssertTrue(notADay.stderr.contains("not a whole day"), notADay.stderr)

        // Without a path: the export last imported.
        let none = try run(["health", "history", "--sets", "summary", "--from", day(2), "--to", day(1)], in: folder)
        XCTAssertTrue(none.stderr.contains("no export given"), none.stderr)
        XCTAssertEqual(try run(["health", "subscribe", "--sets", "diabetes"], in: folder).status, 0)
        XCTAssertEqual(try run(["health", "import", file.path], in: folder).status, 0)
        let latest = try run(["health", "history", "--sets", "summary", "--from", day(3), "--to", day(3)], in: folder)
        XCTAssertEqual(latest.status, 0, latest.stderr)
        XCTAssertTrue(latest.stdout.contains("routine: 1"), latest.stdout)
    }
}
