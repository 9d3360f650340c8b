import BlueZStandIn
import Foundation
import XCTest

/// The stand-in BlueZ checks itself against BlueZ's documented behaviour (Tests/Fixtures/bluez/smoke_test.py),
/// so the other Bluetooth tests run against something that behaves like bluetoothd, not like our assumptions.
final class StandInSmokeTests: XCTestCase {
    func testTheStandInBehavesAsItsSmokeTestExpects() throws {
        guard FileManager.default.isExecutableFile(atPath: PrivateBus.daemon) else {
            throw XCTSkip("\(PrivateBus.daemon) is not installed (Debian package dbus-daemon)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: StandInBlueZ.python)
        process.arguments = [PrivateBus.fixtures.appendingPathComponent("smoke_test.py").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { throw XCTSkip("\(StandInBlueZ.python) cannot run: \(error)") }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if text.contains("No module named 'dbus'") || text.contains("No module named 'gi'") {
            throw XCTSkip("\(StandInBlueZ.python) lacks dbus or gi (Debian packages python3-dbus, python3-gi)")
        }
        XCTAssertEqual(process.terminationStatus, 0, text)
    }
}
