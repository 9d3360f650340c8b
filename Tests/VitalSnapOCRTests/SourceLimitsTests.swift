import Foundation
import XCTest

/// The reader's code keeps its thresholds named (docs/architecture/ocr-pipeline.md, "Thresholds"): at most 40
/// fractional literals in Sources/VitalSnapOCR outside its configuration types, and no file there over 400 lines,
/// as `Scripts/count-fractional-literals.py` counts them.
final class SourceLimitsTests: XCTestCase {
    func testTheReaderKeepsItsThresholdsNamedAndItsFilesShort() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("Scripts/count-fractional-literals.py")
        guard FileManager.default.fileExists(atPath: "/usr/bin/python3") else { throw XCTSkip("python3 is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, "--check", "40", "--list", "Sources/VitalSnapOCR"]
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
    }
}
