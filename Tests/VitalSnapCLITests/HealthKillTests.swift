import Foundation
import VitalSnapCore
import XCTest

/// `health import` killed (SIGKILL) at random moments, again and again, then run to its end: every record of a
/// clean import is queued, exactly once.
final class HealthKillTests: XCTestCase {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/health/make-health-export.py").path

    private func activityIDs(_ data: URL) throws -> [String] {
        try UploadQueue(directory: DataDirectory(path: data.path)).pending().map(\.activityID)
    }

    func testTwentyKillsDuringAnImportLoseNothingAndQueueNothingTwice() throws {
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("/usr/bin/python3 makes the export") }
        let folder = try makeTemporaryFolder()
        let export = folder.appendingPathComponent("export.zip")
        let make = try CLI.runProcess("/usr/bin/python3", [Self.generator, export.path, "--days", "40", "--seed", "21"], in: folder)
        XCTAssertEqual(make.status, 0, make.stderr)
        let sets = "routine,diabetes,weight,fitness,sleep,basicNutrition,biometrics"

        // The reference: one import that was never interrupted.
        let clean = folder.appendingPathComponent("clean")
        XCTAssertEqual(try CLI.run(["health", "subscribe", "--sets", sets, "--data-dir", clean.path], in: folder).status, 0)
        let started = Date()
        let reference = try CLI.run(["health", "import", export.path, "--data-dir", clean.path], in: folder)
        // Kills fall within the first 60 % of a whole import's time (measured here: it changes with the machine and
        // the build), so that none runs to its end even when a later import is faster than this one.
        let importMicroseconds = Date().timeIntervalSince(started) * 1_000_000
        let killWindow = UInt32(importMicroseconds * 0.05)...UInt32(importMicroseconds * 0.6)
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let expected = try activityIDs(clean)
        XCTAssertGreaterThan(expected.count, 1000)

        let killed = folder.appendingPathComponent("killed")
        XCTAssertEqual(try CLI.run(["health", "subscribe", "--sets", sets, "--data-dir", killed.path], in: folder).status, 0)
        var generator = SystemRandomNumberGenerator()
        var kills = 0, attempts = 0
        while kills < 20 && attempts < 80 {
            attempts += 1
            let process = Process()
            process.executableURL = executable
            process.arguments = ["health", "import", export.path, "--data-dir", killed.path]
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: killWindow, using: &generator))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
        }
        XCTAssertGreaterThanOrEqual(kills, 20, "the imports ended before they could be killed")
        let partial = try activityIDs(killed)
        XCTAssertLessThan(partial.count, expected.count, "the kills all fell after the import's end")

        let last = try CLI.run(["health", "import", export.path, "--data-dir", killed.path], in: folder)
        XCTAssertEqual(last.status, 0, last.stderr)
        let final = try activityIDs(killed)
        XCTAssertEqual(final.count, expected.count, "\(kills) kills")
        XCTAssertEqual(Set(final), Set(expected))
    }
}
