import Foundation

/// A private `dbus-daemon` for one test: started with the fixture's configuration, stopped when released.
/// Tests on a real bus use this instead of the system bus, which has no BlueZ on a machine without Bluetooth.
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    private let process: Process

    /// Why the bus cannot be started here (no dbus-daemon installed); tests turn it into a skip.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public static let daemon = "/usr/bin/dbus-daemon"

    /// The fixtures folder, `Tests/Fixtures/bluez`.
    public static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/bluez")

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.daemon) else {
            throw Unavailable(description: "\(Self.daemon) is not installed (Debian package dbus-daemon)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.daemon)
        process.arguments = [
            "--config-file=\(Self.fixtures.appendingPathComponent("bus.conf").path)", "--nofork", "--print-address=1",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        self.process = process
        guard let line = Self.firstLine(of: output.fileHandleForReading), line.hasPrefix("unix:") else {
            process.terminate()
            process.waitUntilExit()
            throw Unavailable(description: "dbus-daemon did not print its address")
        }
        address = line
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// Reads up to the first newline (blocking; the child writes it as soon as it is ready, or exits).
    static func firstLine(of handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes += chunk
            if bytes.contains(UInt8(ascii: "\n")) { break }
        }
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
