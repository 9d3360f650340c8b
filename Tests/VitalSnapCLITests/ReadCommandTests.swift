import Foundation
import VitalSnapIngestStub
import XCTest

/// The live flow end to end without a camera: the project's sample clips replayed as frame sequences.
final class ReadCommandTests: XCTestCase {
    private let clips = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/clips")

    private func read(_ clip: String, _ extra: [String], in folder: URL) throws -> CLI.Output {
        try CLI.run(
            ["read", "--input", clips.appendingPathComponent(clip).path, "--fps", "0", "--json",
             "--data-dir", folder.appendingPathComponent("data").path] + extra, in: folder)
    }

    private func queued(in folder: URL) throws -> [[String: Any]] {
        let list = try CLI.run(["queue", "list", "--json", "--data-dir", folder.appendingPathComponent("data").path], in: folder)
        return try list.lines.map { try jsonObject($0) }
    }

    func testASettlingClipConvergesOnItsValueAndQueuesTheRecordWithItsCrop() throws {
        let folder = try makeTemporaryFolder()
        let result = try read("settle-glucose-g1", ["-p", "101", "--yes"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try jsonObject(try XCTUnwrap(result.lines.last))
        XCTAssertEqual(summary["status"] as? String, "queued")
        XCTAssertEqual(summary["reading"] as? String, "43")
        XCTAssertEqual(summary["uploaded"] as? Bool, false)
        // The first frames are blurred and glared: they cannot be what it converged on.
        XCTAssertGreaterThan(try XCTUnwrap(summary["frames_to_convergence"] as? Int), 4)
        XCTAssertTrue(result.stderr.contains("frame 1: -"), result.stderr)
        let crop = try XCTUnwrap(summary["crop"] as? String)
        XCTAssertTrue(FileManager.default.fileExists(atPath: crop))

        let rows = try queued(in: folder)
        XCTAssertEqual(rows.count, 1)
        let record = try XCTUnwrap((rows[0]["record"] as? [String: Any])?["diabetes"] as? [String: Any])
        XCTAssertEqual(record["blood_glucose"] as? Double, 43)
        XCTAssertEqual(record["activity_id"] as? String, summary["activity_id"] as? String)
        let image = try XCTUnwrap(rows[0]["image"] as? String)
        XCTAssertEqual(FileManager.default.contents(atPath: image), FileManager.default.contents(atPath: crop))
    }

    /// `vitalsnap --peripheral ...` runs `read`; with a session, the accepted record and its crop are uploaded.
    func testTheDefaultCommandIsReadAndUploadsWithASession() throws {
        let server = IngestionStubServer(expectedToken: "t")
        try server.start()
        defer { server.stop() }
        let folder = try makeTemporaryFolder()
        let data = folder.appendingPathComponent("data").path
        let session = try CLI.run(
            ["session", "start", "--user", "u", "--org", "o", "--token", "t", "--endpoint", server.baseURL.absoluteString,
             "--data-dir", data], in: folder)
        XCTAssertEqual(session.status, 0, session.stderr)
        let result = try CLI.run(
            ["--peripheral", "101", "--input", clips.appendingPathComponent("settle-glucose-g1").path, "--fps", "0", "--yes",
             "--data-dir", data], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("queued 43 mg/dL"), result.stdout)
        XCTAssertEqual(server.storedRecords.map { $0.json["blood_glucose"] }, ["43"])
        let image = try XCTUnwrap(server.storedMedia[server.storedRecords[0].serverID])
        XCTAssertTrue(image.starts(with: [0x89, 0x50, 0x4E, 0x47]), "the crop, as PNG")
        XCTAssertEqual(try queued(in: folder).count, 0)
    }

    func testAlternatingValuesNeverConverge() throws {
        let folder = try makeTemporaryFolder()
        let result = try read("alternate-glucose-g2-mmol", ["-p", "102", "--unit", "mmol", "--yes"], in: folder)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("without a steady reading"), result.stderr)
        XCTAssertEqual(try queued(in: folder).count, 0)
    }

    /// The rule-based reader settles on the word and says so (exit 6). The trained one, the default, reads the
    /// word in half of the clip's frames (README, "Accuracy"): it must end with the word or without a steady
    /// reading (exit 2), and never with a number.
    func testADisplayShowingLOYieldsNoNumber() throws {
        let folder = try makeTemporaryFolder()
        let result = try read("lo-glucose-g1", ["-p", "101", "--yes", "--reader", "rules"], in: folder)
        XCTAssertEqual(result.status, 6, result.stderr)
        let summary = try jsonObject(try XCTUnwrap(result.lines.last))
        XCTAssertEqual(summary["word"] as? String, "LO")
        XCTAssertNil(summary["values"])
        XCTAssertEqual(try queued(in: folder).count, 0)

        let trained = try makeTemporaryFolder()
        let byDefault = try read("lo-glucose-g1", ["-p", "101", "--yes"], in: trained)
        XCTAssertTrue([2, 6].contains(byDefault.status), "exit \(byDefault.status): \(byDefault.stderr)")
        XCTAssertNil(try jsonObject(try XCTUnwrap(byDefault.lines.last))["values"])
        XCTAssertEqual(try queued(in: trained).count, 0)
    }

    func testAMgPerDLClipReadAsMmolIsRefusedNotConverted() throws {
        let folder = try makeTemporaryFolder()
        // Peripheral 9 (any glucose meter) offers both units; the clip's meter shows 100 mg/dL.
        let result = try read("mgdl-glucose-g1", ["-p", "9", "--unit", "mmol", "--yes"], in: folder)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("plausible") || result.stderr.contains("mmol/L"), result.stderr)
        XCTAssertEqual(try queued(in: folder).count, 0)
    }

    func testWithoutYesOffATerminalNothingIsQueued() throws {
        let folder = try makeTemporaryFolder()
        let result = try read("settle-glucose-g1", ["-p", "101"], in: folder)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("--yes"), result.stderr)
        XCTAssertEqual(try queued(in: folder).count, 0)
    }

    func testAMissingCameraIsAClearErrorWithItsOwnExitStatus() throws {
        let folder = try makeTemporaryFolder()
        let result = try CLI.run(["read", "-p", "9", "--device", "/dev/video-vitalsnap-none", "--data-dir", folder.path], in: folder)
        XCTAssertEqual(result.status, 10, result.stderr)
        XCTAssertTrue(result.stderr.contains("no camera at /dev/video-vitalsnap-none"), result.stderr)
    }

    func testAReplayOfAnEmptyFolderIsAnError() throws {
        let folder = try makeTemporaryFolder()
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try CLI.run(["read", "-p", "9", "--input", empty.path, "--data-dir", folder.path], in: folder)
        XCTAssertEqual(result.status, 15, result.stderr)
        XCTAssertTrue(result.stderr.contains("no images (.jpg, .jpeg, .png, .webp, .heic"), result.stderr)
    }

    func testTimeoutGivesUpWithItsExitStatus() throws {
        let folder = try makeTemporaryFolder()
        // 4 frames a second of a clip that never agrees: only the timeout can end it early.
        let result = try CLI.run(
            ["read", "-p", "102", "--unit", "mmol", "--input", clips.appendingPathComponent("alternate-glucose-g2-mmol").path,
             "--fps", "4", "--timeout", "1", "--yes", "--data-dir", folder.appendingPathComponent("data").path], in: folder)
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertTrue(result.stderr.contains("no steady reading after 1 s"), result.stderr)
    }

    func testCtrlCCancelsCleanly() throws {
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found next to the tests") }
        let folder = try makeTemporaryFolder()
        let process = Process()
        process.executableURL = executable
        process.arguments = ["read", "-p", "102", "--unit", "mmol", "--input", clips.appendingPathComponent("alternate-glucose-g2-mmol").path,
                             "--fps", "2", "--yes", "--data-dir", folder.appendingPathComponent("data").path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertTrue(process.isRunning, "the 6-second replay ended early")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationReason, .exit, "exited by itself, not killed by the signal")
        XCTAssertEqual(process.terminationStatus, 130, stderr)
        XCTAssertTrue(stderr.contains("cancelled (Ctrl-C)"), stderr)
        XCTAssertEqual(try queued(in: folder).count, 0)
    }

    /// On a terminal the reading is confirmed by hand: `script` gives the command a pseudo-terminal, and the
    /// answers "e" (edit) then "50" are typed into it.
    func testOnATerminalTheReadingCanBeEditedBeforeItIsQueued() throws {
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found next to the tests") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script for a pseudo-terminal") }
        let folder = try makeTemporaryFolder()
        let command = [executable.path, "read", "-p", "101", "--input", clips.appendingPathComponent("settle-glucose-g1").path,
                       "--fps", "0", "--data-dir", folder.appendingPathComponent("data").path].map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data("e\n50\n".utf8))
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if text.contains("script:") && !text.contains("Accept") { throw XCTSkip("no pseudo-terminal here: \(text)") }
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("Accept 43 mg/dL? [a]ccept, [e]dit, [c]ancel"), text)
        XCTAssertTrue(text.contains("queued 50 mg/dL"), text)
        let record = try XCTUnwrap((try queued(in: folder).first?["record"] as? [String: Any])?["diabetes"] as? [String: Any])
        XCTAssertEqual(record["blood_glucose"] as? Double, 50)
    }
}
