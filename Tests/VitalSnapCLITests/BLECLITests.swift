import BlueZStandIn
import Foundation
import VitalSnapBluetooth
import VitalSnapCore
import VitalSnapIngestStub
import XCTest

/// `ble pair`, `ble read` and `ble passive` as a user runs them: the built executable against the stand-in BlueZ
/// on a private bus, its records uploaded to the ingestion stub on loopback.
final class BLECLITests: XCTestCase {
    typealias S = StandInScenario
    private let token = "ble-token-0042"
    private var keep: [AnyObject] = []

    override func tearDown() {
        keep.removeAll()
        super.tearDown()
    }

    private func standIn(_ devices: [[String: Any]]) throws -> StandInBlueZ {
        do {
            let standIn = try StandInBlueZ(scenario: S.scenario(devices: devices))
            keep.append(standIn)
            return standIn
        } catch let error as PrivateBus.Unavailable {
            throw XCTSkip(error.description)
        }
    }

    private func startServer() throws -> IngestionStubServer {
        let server = IngestionStubServer(expectedToken: token)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func run(_ arguments: [String], in folder: URL) throws -> CLI.Output {
        try CLI.run(arguments + ["--data-dir", folder.appendingPathComponent("data").path], in: folder)
    }

    private func startSession(_ server: IngestionStubServer, in folder: URL) throws {
        let started = try run(
            ["session", "start", "--user", "u1", "--org", "org1", "--token", token, "--endpoint", server.baseURL.absoluteString],
            in: folder)
        XCTAssertEqual(started.status, 0, started.stderr)
    }

    private func bleArguments(_ standIn: StandInBlueZ) -> [String] {
        ["--bus", standIn.bus.address, "--connection-timeout", "5", "--reading-timeout", "3"]
    }

    private let march5 = S.dateTime(2026, 3, 5, 7, 10)

    private func records() -> [(String, String)] {
        [
            (S.glucose(sequence: 1, mgPerDL: 98, at: march5, contextFollows: true), S.glucoseContext(sequence: 1, meal: 3)),
            (S.glucose(sequence: 2, mgPerDL: 140, at: S.dateTime(2026, 3, 5, 12, 40)), ""),
            (S.glucose(sequence: 3, mgPerDL: 121, at: S.dateTime(2026, 3, 5, 19, 5), contextFollows: true), S.glucoseContext(sequence: 3, meal: 2)),
        ]
    }

    func testReadingAMeterAgainQueuesOnlyItsNewRecordsAndEachIsUploadedOnce() throws {
        let server = try startServer()
        let folder = try makeTemporaryFolder()
        try startSession(server, in: folder)
        let standIn = try standIn([S.glucoseMeter(records: records(), paired: true)])

        // Off a terminal, without --yes, nobody can say "submit": nothing is queued, and nothing is lost either.
        let unconfirmed = try run(["ble", "read", "30"] + bleArguments(standIn), in: folder)
        XCTAssertEqual(unconfirmed.status, 5, unconfirmed.stderr)
        XCTAssertTrue(server.storedRecords.isEmpty)

        let first = try run(["ble", "read", "30", "--yes", "--json"] + bleArguments(standIn), in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("\"queued\":3"), first.stdout)
        XCTAssertEqual(server.storedRecords.map { $0.json["blood_glucose"] }, ["98", "140", "121"])
        // validated: the values came from the device itself (the stub writes JSON booleans as 1 and 0).
        XCTAssertEqual(Set(server.storedRecords.map { $0.json["validated"] }), ["1"])
        XCTAssertEqual(server.storedRecords.map { $0.json["relationship_to_meal"] }, ["fasting", nil, "after"])

        // Nothing new: no reading (exit 24), nothing uploaded again.
        let second = try run(["ble", "read", "30", "--yes"] + bleArguments(standIn), in: folder)
        XCTAssertEqual(second.status, 24, second.stderr)
        XCTAssertEqual(server.storedRecords.count, 3)

        try standIn.control("AddStoredRecord", [
            .string("00:09:1F:80:00:01"), .bytes(Self.bytes(S.glucose(sequence: 4, mgPerDL: 77, at: S.dateTime(2026, 3, 6, 7, 0)))), .bytes([]),
        ])
        let third = try run(["ble", "read", "30", "--yes"] + bleArguments(standIn), in: folder)
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(server.storedRecords.map { $0.json["blood_glucose"] }, ["98", "140", "121", "77"])
        XCTAssertEqual(server.duplicateDeliveries, 0)
        XCTAssertEqual(Set(server.storedRecords.map(\.activityID)).count, 4)
    }

    func testACuffReadingIsQueuedAsBiometricsAndAReadWithoutASessionIsRefused() throws {
        let server = try startServer()
        let folder = try makeTemporaryFolder()
        let cuff = S.indicatingDevice(
            address: "00:09:1F:00:00:02", name: "A&D_UA-651BLE_7A1C", service: "1810", characteristic: "2A35",
            payloads: [S.bloodPressure(systolic: 128, diastolic: 82, pulse: 66, at: march5)], paired: true)
        let standIn = try standIn([cuff])
        let refused = try run(["ble", "read", "2", "--yes"] + bleArguments(standIn), in: folder)
        XCTAssertEqual(refused.status, 25, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("session"), refused.stderr)

        try startSession(server, in: folder)
        let read = try run(["ble", "read", "2", "--yes"] + bleArguments(standIn), in: folder)
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(server.storedRecords.count, 1)
        XCTAssertEqual(server.storedRecords.first?.type, "biometrics")
        XCTAssertEqual(server.storedRecords.first?.json["systolic"], "128")
        XCTAssertEqual(server.storedRecords.first?.json["diastolic"], "82")
        XCTAssertEqual(server.storedRecords.first?.json["timestamp"].map { $0.hasPrefix("2026-03-05T07:10:00") }, true)
    }

    func testPairingTakesThePINAndAWrongOneExitsWithThePairingStatus() throws {
        let folder = try makeTemporaryFolder()
        let standIn = try standIn([S.glucoseMeter(records: records(), pairing: ["pin": "123456"])])
        let wrong = try run(["ble", "pair", "30", "--pin", "000000"] + bleArguments(standIn), in: folder)
        XCTAssertEqual(wrong.status, 22, wrong.stderr)
        let right = try run(["ble", "pair", "30", "--pin", "123456"] + bleArguments(standIn), in: folder)
        XCTAssertEqual(right.status, 0, right.stderr)
        XCTAssertTrue(right.stdout.contains("paired Roche Accu-Chek Instant 00:09:1F:80:00:01"), right.stdout)
    }

    func testAMeterThatDropsTheConnectionMidTransferQueuesNothing() throws {
        let server = try startServer()
        let folder = try makeTemporaryFolder()
        try startSession(server, in: folder)
        let standIn = try standIn([S.glucoseMeter(records: records(), paired: true, faults: ["disconnect_after_notifications": 2])])
        let read = try run(["ble", "read", "30", "--yes"] + bleArguments(standIn), in: folder)
        XCTAssertEqual(read.status, 20, read.stderr)
        XCTAssertTrue(server.storedRecords.isEmpty)
        XCTAssertEqual(try run(["queue", "list"], in: folder).lines.count, 0)
    }

    func testALicensedKitMeterIsRefusedWithItsReason() throws {
        let folder = try makeTemporaryFolder()
        let result = try run(["ble", "read", "32", "--bus", "unix:path=/nonexistent"], in: folder)
        XCTAssertEqual(result.status, 28, result.stderr)
        XCTAssertTrue(result.stderr.contains("licensed kit"), result.stderr)
    }

    func testNoBlueZOnTheBusIsBluetoothOff() throws {
        let folder = try makeTemporaryFolder()
        let bus: PrivateBus
        do { bus = try PrivateBus() } catch let error as PrivateBus.Unavailable { throw XCTSkip(error.description) }
        let result = try run(["ble", "pair", "30", "--pin", "1", "--bus", bus.address], in: folder)
        XCTAssertEqual(result.status, 23, result.stderr)
        XCTAssertTrue(result.stderr.contains("BlueZ"), result.stderr)
    }

    func testPassiveReadingReadsAMeterOnceUntilItHasBeenQuietThenOnlyItsNewRecords() throws {
        let server = try startServer()
        let folder = try makeTemporaryFolder()
        try startSession(server, in: folder)
        let standIn = try standIn([S.glucoseMeter(records: records(), paired: true)])
        XCTAssertEqual(try run(["ble", "passive", "set", "30"], in: folder).status, 0)
        XCTAssertEqual(try run(["ble", "passive", "show"], in: folder).stdout.contains("30  Roche Accu-Chek Instant"), true)

        // An interactive read (here: its lock, held by this test) suspends passive reading until it ends.
        let interactive = try BLEOperationLock(directory: DataDirectory(path: folder.appendingPathComponent("data").path))
        interactive.lock()
        let passive = try BackgroundCLI(
            ["ble", "passive", "run", "--quiet-time", "1", "--events", "jsonl", "--bus", standIn.bus.address,
             "--data-dir", folder.appendingPathComponent("data").path], in: folder)
        keep.append(passive)
        XCTAssertTrue(passive.waitForLine(timeout: 20) { $0.contains("\"event\":\"suspended\"") }, passive.output)
        XCTAssertTrue(server.storedRecords.isEmpty)
        interactive.unlock()
        XCTAssertTrue(passive.waitForLine(timeout: 20) { $0.contains("\"event\":\"read\"") }, passive.output)
        XCTAssertEqual(server.storedRecords.count, 3)
        // Still advertising: not read again, however long it stays.
        Thread.sleep(forTimeInterval: 2)
        XCTAssertEqual(passive.lines.filter { $0.contains("\"event\":\"read\"") }.count, 1, passive.output)

        // It goes quiet, a new measurement is taken, it advertises again: only the new record is queued.
        try standIn.setAdvertising("00:09:1F:80:00:01", false)
        Thread.sleep(forTimeInterval: 1.5)
        try standIn.control("AddStoredRecord", [
            .string("00:09:1F:80:00:01"), .bytes(Self.bytes(S.glucose(sequence: 4, mgPerDL: 77, at: S.dateTime(2026, 3, 6, 7, 0)))), .bytes([]),
        ])
        try standIn.setAdvertising("00:09:1F:80:00:01", true)
        XCTAssertTrue(passive.waitForLine(timeout: 20) { $0.contains("\"queued\":1") }, passive.output)
        XCTAssertEqual(server.storedRecords.map { $0.json["blood_glucose"] }, ["98", "140", "121", "77"])

        XCTAssertEqual(passive.terminate(), 0, passive.output)

        // Ending the session ends passive reading's choice too.
        XCTAssertEqual(try run(["session", "end", "--yes"], in: folder).status, 0)
        XCTAssertTrue(try run(["ble", "passive", "show"], in: folder).stdout.contains("passive reading is off"))
    }

    static func bytes(_ hex: String) -> [UInt8] { HexText.bytes(hex) }
}

/// The executable running in the background (a long-lived command), its stdout collected line by line.
final class BackgroundCLI: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var text = ""
    private var errors = ""

    init(_ arguments: [String], in directory: URL) throws {
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found next to the tests") }
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.text += String(decoding: data, as: UTF8.self) }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.errors += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var lines: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }
    var output: String { lock.withLock { "stdout:\n\(text)\nstderr:\n\(errors)" } }

    /// Waits until a line satisfies `condition`; false when `timeout` seconds pass first.
    func waitForLine(timeout: Double, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lines.contains(where: condition) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// SIGTERM, as systemd stops a service; the exit status.
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
