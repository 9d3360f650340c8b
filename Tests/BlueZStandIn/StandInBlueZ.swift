import Foundation
import VitalSnapBluetooth

/// The stand-in BlueZ of `Tests/Fixtures/bluez/standin_bluez.py` on a private bus, playing a scenario: the
/// devices it has, what they send and how they fail. The code under test talks to it exactly as to bluetoothd.
public final class StandInBlueZ: @unchecked Sendable {
    public let bus: PrivateBus
    private let process: Process
    private let scenarioFile: URL
    private let control: BusConnection
    private let logFile: URL

    /// What the stand-in logged (each call it received, what each device did), for a failing test's message.
    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// The Python that has dbus-python and PyGObject (Debian's python3-dbus, python3-gi).
    public static let python = "/usr/bin/python3"

    public init(scenario: [String: Any]) throws {
        bus = try PrivateBus()
        guard Self.pythonHasModules() else {
            throw PrivateBus.Unavailable(description: "\(Self.python) lacks dbus or gi (Debian packages python3-dbus, python3-gi)")
        }
        scenarioFile = FileManager.default.temporaryDirectory.appendingPathComponent("bluez-scenario-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: scenario, options: [.sortedKeys]).write(to: scenarioFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [
            PrivateBus.fixtures.appendingPathComponent("standin_bluez.py").path, "--address", bus.address,
            "--scenario", scenarioFile.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        // Its log of every call goes to a file (`log`), not into the test output.
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("bluez-standin-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        self.process = process
        guard PrivateBus.firstLine(of: output.fileHandleForReading) == "READY" else {
            process.terminate()
            throw PrivateBus.Unavailable(description: "the stand-in BlueZ did not start")
        }
        control = try BusConnection(address: bus.address)
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: scenarioFile)
        try? FileManager.default.removeItem(at: logFile)
    }

    static func pythonHasModules() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import dbus, gi.repository.GLib"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        do { try check.run() } catch { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }

    /// Calls the stand-in's control interface (`org.vitalsnap.StandIn1`).
    @discardableResult
    public func control(_ member: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        try control.call(
            destination: "org.bluez", path: "/org/vitalsnap/standin", interface: "org.vitalsnap.StandIn1", member: member,
            arguments: arguments, timeout: 5)
    }

    /// The org.bluez calls it received so far, one line each.
    public func calls() throws -> [String] {
        try control("Calls").first?.stringArray ?? []
    }

    public func setAdvertising(_ address: String, _ on: Bool) throws {
        try control("SetAdvertising", [.string(address), .boolean(on)])
    }
}
