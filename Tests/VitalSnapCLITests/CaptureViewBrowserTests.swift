import Foundation
import XCTest

/// `vitalsnap read --view` in a real browser: headless Chromium driven by Selenium (Debian's chromium,
/// chromium-driver and python3-selenium, which `.ci/run` installs) through `Browser/drive_view.py`, on the
/// project's own clips, as a person would use the page. Skips with a message where the browser is missing.
///
/// Screenshots of the page at its steps go to a temporary folder, or, with `UPDATE_DOC_SCREENSHOTS=1` in the
/// environment, to `docs/images/capture-view/`, where the documentation shows them.
final class CaptureViewBrowserTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Browser/drive_view.py").path

    override func setUpWithError() throws {
        for path in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"] where !FileManager.default.isExecutableFile(atPath: path) {
            throw XCTSkip("\(path) is missing: apt-get install -y chromium chromium-driver python3-selenium (.ci/run does)")
        }
        let probe = try CLI.runProcess("/usr/bin/python3", ["-c", "import selenium"], in: FileManager.default.temporaryDirectory)
        if probe.status != 0 { throw XCTSkip("python3-selenium is missing: apt-get install -y python3-selenium (.ci/run does)") }
    }

    /// The page shows frames and the overlay, the partial readings, then 43 mg/dL with its crop; Accept queues one
    /// record with that crop, and the command exits 0.
    func testAcceptQueuesTheReadingWithItsCrop() throws {
        let folder = try makeTemporaryFolder()
        let (page, command) = try drive("accept", clip: "settle-glucose-g1", peripheral: "101", in: folder)
        XCTAssertEqual(page.status, 0, page.stdout + page.stderr)
        XCTAssertGreaterThan(Int(value("frames drawn", in: page.stdout) ?? "") ?? 0, 0, page.stdout)
        XCTAssertTrue(value("overlay", in: page.stdout)?.contains("width") ?? false, page.stdout)
        XCTAssertFalse(value("partials", in: page.stdout)?.isEmpty ?? true, "no partial reading shown: \(page.stdout)")
        XCTAssertEqual(value("value", in: page.stdout), "43", page.stdout)
        XCTAssertEqual(value("unit", in: page.stdout), "mg/dL", page.stdout)
        XCTAssertNotEqual(value("crop", in: page.stdout), "0x0", page.stdout)
        XCTAssertTrue(value("message", in: page.stdout)?.hasPrefix("Queued 43 mg/dL") ?? false, page.stdout)
        XCTAssertEqual(command.status, 0, command.stderr)
        XCTAssertTrue(command.stdout.contains("queued 43 mg/dL"), command.stdout)
        // The queue holds the one record, with the crop the page showed.
        let rows = try queued(in: folder)
        XCTAssertEqual(rows.count, 1)
        let record = try XCTUnwrap((rows.first?["record"] as? [String: Any])?["diabetes"] as? [String: Any])
        XCTAssertEqual(record["blood_glucose"] as? Double, 43)
        let image = try XCTUnwrap(rows.first?["image"] as? String)
        XCTAssertNotNil(FileManager.default.contents(atPath: image))
    }

    func testCancelQueuesNothing() throws {
        let folder = try makeTemporaryFolder()
        let (page, command) = try drive("cancel", clip: "settle-glucose-g1", peripheral: "101", in: folder)
        XCTAssertEqual(page.status, 0, page.stdout + page.stderr)
        XCTAssertEqual(value("exit status", in: page.stdout), "5", page.stdout)
        XCTAssertEqual(command.status, 5, command.stderr)
        XCTAssertEqual(try queued(in: folder).count, 0)
    }

    /// An edited value outside the peripheral's range is refused on the page, which keeps the reading to decide on.
    func testAnEditOutOfRangeIsRefusedOnThePage() throws {
        let folder = try makeTemporaryFolder()
        let (page, command) = try drive("edit", clip: "settle-glucose-g1", peripheral: "101", in: folder, extra: ["--edit", "5000"])
        XCTAssertEqual(page.status, 0, page.stdout + page.stderr)
        let notice = try XCTUnwrap(value("notice", in: page.stdout), page.stdout)
        XCTAssertTrue(notice.contains("Not taken") && notice.contains("outside the plausible range"), notice)
        XCTAssertEqual(command.status, 5, command.stderr)
        XCTAssertEqual(try queued(in: folder).count, 0)
    }

    /// A replay whose values alternate never settles: the page says so, and the command ends as the terminal's does.
    func testAReplayThatNeverSettlesEndsWithItsMessage() throws {
        let folder = try makeTemporaryFolder()
        let (page, command) = try drive("unsteady", clip: "alternate-glucose-g2-mmol", peripheral: "102", unit: "mmol", in: folder)
        XCTAssertEqual(page.status, 0, page.stdout + page.stderr)
        XCTAssertTrue(value("message", in: page.stdout)?.contains("without a steady reading") ?? false, page.stdout)
        XCTAssertEqual(value("exit status", in: page.stdout), "2", page.stdout)
        XCTAssertEqual(command.status, 2, command.stderr)
        XCTAssertEqual(try queued(in: folder).count, 0)
    }

    /// A camera that cannot be opened is said on the page, with what to do, and the command exits as the terminal
    /// flow does for it.
    func testACameraThatCannotBeOpenedIsSaidOnThePage() throws {
        let folder = try makeTemporaryFolder()
        let (page, command) = try drive(
            "unsteady", clip: nil, peripheral: "9", in: folder, extra: [], readArguments: ["--device", "/dev/video-vitalsnap-none"])
        XCTAssertEqual(page.status, 0, page.stdout + page.stderr)
        XCTAssertTrue(value("message", in: page.stdout)?.contains("no camera at /dev/video-vitalsnap-none") ?? false, page.stdout)
        XCTAssertEqual(value("exit status", in: page.stdout), "10", page.stdout)
        XCTAssertEqual(command.status, 10, command.stderr)
    }

    /// Closing the page while reading ends the command as a cancel, after the grace period a reload is allowed.
    func testClosingThePageIsACancel() throws {
        let folder = try makeTemporaryFolder()
        let (page, command) = try drive("close", clip: "alternate-glucose-g2-mmol", peripheral: "102", unit: "mmol", in: folder, fps: "1")
        XCTAssertEqual(page.status, 0, page.stdout + page.stderr)
        XCTAssertEqual(command.status, 5, command.stderr)
        XCTAssertEqual(try queued(in: folder).count, 0)
    }

    /// While a page is open, requests nobody's page would make are refused: a wrong token or none (403), a
    /// foreign `Host` (403: DNS rebinding), a WebSocket upgrade from another `Origin` (not upgraded); the page
    /// goes on working, and its Cancel ends the command as a cancel.
    func testAWrongTokenAForeignHostAndAForeignOriginAreRefused() throws {
        let folder = try makeTemporaryFolder()
        let (page, command) = try drive("security", clip: "settle-glucose-g1", peripheral: "101", in: folder)
        XCTAssertEqual(page.status, 0, page.stdout + page.stderr)
        XCTAssertEqual(value("own page", in: page.stdout), "200", page.stdout)
        XCTAssertEqual(value("wrong token", in: page.stdout), "403", page.stdout)
        XCTAssertEqual(value("no token", in: page.stdout), "403", page.stdout)
        XCTAssertEqual(value("foreign host", in: page.stdout), "403", page.stdout)
        XCTAssertGreaterThanOrEqual(Int(value("foreign origin upgrade", in: page.stdout) ?? "") ?? 0, 400, page.stdout)
        XCTAssertEqual(value("exit status", in: page.stdout), "5", page.stdout)
        XCTAssertEqual(command.status, 5, command.stderr)
    }

    // MARK: - Running it

    /// Starts `vitalsnap read --view` on `clip`, drives its page through `scenario`, and returns what the page
    /// driver printed and how the command ended.
    private func drive(
        _ scenario: String, clip: String?, peripheral: String, unit: String? = nil, in folder: URL, fps: String = "0",
        extra: [String] = [], readArguments: [String] = []
    ) throws -> (page: CLI.Output, command: CLI.Output) {
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found next to the tests") }
        // Run from the repository, the clip named as a user would name it (the page shows its name).
        var arguments = ["read", "--view", "-p", peripheral, "--data-dir", folder.appendingPathComponent("data").path] + readArguments
        if let clip { arguments += ["--input", "Samples/clips/\(clip)", "--fps", fps] }
        if let unit { arguments += ["--unit", unit] }
        let command = try ViewCommand(executable: executable, arguments: arguments, in: Self.root, output: folder)
        let url = try command.waitForURL(timeout: 60)
        let screenshots = try screenshotFolder(in: folder)
        let page = try CLI.runProcess(
            "/usr/bin/python3", [Self.driver, url, scenario, "--screenshots", screenshots.path, "--timeout", "120"] + extra, in: folder)
        return (page, command.waitForExit(timeout: 60))
    }

    private func screenshotFolder(in folder: URL) throws -> URL {
        let docs = ProcessInfo.processInfo.environment["UPDATE_DOC_SCREENSHOTS"] == "1"
        let url = docs ? Self.root.appendingPathComponent("docs/images/capture-view") : folder.appendingPathComponent("screenshots")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func queued(in folder: URL) throws -> [[String: Any]] {
        let list = try CLI.run(["queue", "list", "--json", "--data-dir", folder.appendingPathComponent("data").path], in: folder)
        return try list.lines.map { try jsonObject($0) }
    }

    /// The value of the driver's `key: value` line.
    private func value(_ key: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("\(key): ") }.map { String($0.dropFirst(key.count + 2)) }
    }
}

/// The `vitalsnap read --view` process of a test: its URL read from stderr while it runs.
private final class ViewCommand: @unchecked Sendable {
    private let process = Process()
    private let stdout: URL
    private let stderr: URL

    /// Runs `executable` in `directory`, its output written into `output`.
    init(executable: URL, arguments: [String], in directory: URL, output: URL) throws {
        stdout = output.appendingPathComponent("view.stdout")
        stderr = output.appendingPathComponent("view.stderr")
        FileManager.default.createFile(atPath: stdout.path, contents: nil)
        FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The URL of its `view: URL` line on stderr.
    func waitForURL(timeout: Double) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("view: ") }) {
                return String(line.dropFirst("view: ".count))
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw NoURL(stderr: (try? String(contentsOf: stderr, encoding: .utf8)) ?? "")
    }

    struct NoURL: Error, CustomStringConvertible {
        var stderr: String
        var description: String { "vitalsnap read --view printed no `view: URL` line: \(stderr)" }
    }

    func waitForExit(timeout: Double) -> CLI.Output {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return CLI.Output(
            status: process.terminationStatus, stdout: (try? String(contentsOf: stdout, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: stderr, encoding: .utf8)) ?? "")
    }
}
