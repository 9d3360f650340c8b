import BlueZStandIn
import Foundation
import VitalSnapBluetooth
import XCTest

/// The controller against the stand-in BlueZ on a private bus: the same calls it makes to bluetoothd.
final class BLEControllerTests: XCTestCase {
    typealias S = StandInScenario
    private let catalog = try! BLEPeripheralCatalog.builtIn()
    private let march5 = S.dateTime(2026, 3, 5, 7, 10)

    /// Short waits: the stand-in answers in milliseconds, so only the failure cases wait these out.
    private let timings = BLETimings(connectionTimeout: 3, readingTimeout: 1.5, settle: 0.3, pairing: 5)

    /// Kept for the test's length: releasing one stops its processes.
    private var standIns: [StandInBlueZ] = []

    override func tearDown() {
        standIns.removeAll()
        super.tearDown()
    }

    private func start(_ devices: [[String: Any]], powered: Bool = true) throws -> (StandInBlueZ, BLEController) {
        let standIn: StandInBlueZ
        do {
            standIn = try StandInBlueZ(scenario: S.scenario(powered: powered, devices: devices))
        } catch let error as PrivateBus.Unavailable {
            throw XCTSkip(error.description)
        }
        standIns.append(standIn)
        let client = try BlueZClient(bus: BusConnection(address: standIn.bus.address))
        return (standIn, BLEController(client: client, timings: timings))
    }

    private func threeRecords() -> [(String, String)] {
        [
            (S.glucose(sequence: 1, mgPerDL: 98, at: march5, contextFollows: true), S.glucoseContext(sequence: 1, meal: 3)),
            (S.glucose(sequence: 2, mgPerDL: 140, at: S.dateTime(2026, 3, 5, 12, 40)), ""),
            (S.glucose(sequence: 3, mgPerDL: 121, at: S.dateTime(2026, 3, 5, 19, 5), contextFollows: true), S.glucoseContext(sequence: 3, meal: 2)),
        ]
    }

    func testAGlucoseMeterSendsEveryStoredRecordWithItsContextThroughTheRACP() throws {
        let records = threeRecords()
        let (standIn, controller) = try start([S.glucoseMeter(records: records, paired: true)])
        let events = Recorder<BLEControllerEvent>()
        controller.onEvent = { event in events.append(event) }
        let outcome = try controller.read(catalog[30]!)
        XCTAssertEqual(outcome.address, "00:09:1F:80:00:01")
        XCTAssertEqual(outcome.payloads.map { S.hex($0.bytes) }, records.map(\.0))
        XCTAssertEqual(outcome.payloads.map { $0.context.map(S.hex) ?? "" }, records.map(\.1))
        let calls = try standIn.calls()
        XCTAssertTrue(calls.contains { $0.hasPrefix("WriteValue") && $0.contains("0101") }, "\(calls)")
        XCTAssertEqual(events.items.first, .readyToRead(peripheralID: 30))
        XCTAssertTrue(events.items.contains(.connected(address: "00:09:1F:80:00:01")))
        // The device is left disconnected.
        XCTAssertEqual(calls.last { $0.hasPrefix("Connect") || $0.hasPrefix("Disconnect") }, "Disconnect dev_00_09_1F_80_00_01")
    }

    func testOnlyRecordsAfterTheAnchorAreAskedForAndReturned() throws {
        let (standIn, controller) = try start([S.glucoseMeter(records: threeRecords(), paired: true)])
        let outcome = try controller.read(catalog[30]!, anchor: { address in address == "00:09:1F:80:00:01" ? 2 : nil })
        XCTAssertEqual(outcome.payloads.count, 1)
        XCTAssertEqual(outcome.payloads.first.flatMap { Array($0.bytes[1...2]) }, [3, 0])
        let calls = try standIn.calls()
        XCTAssertTrue(calls.contains { $0.contains("0103010300") }, "\(calls)")
        // Nothing after the last one: "no reading", not an empty success.
        XCTAssertThrowsError(try controller.read(catalog[30]!, anchor: { _ in 3 })) { error in
            guard case .noReading = error as? BLEError else { return XCTFail("\(error)") }
        }
    }

    func testACuffAThermometerAScaleAndAnOximeterEachGiveTheirMeasurement() throws {
        let cuff = S.bloodPressure(systolic: 128, diastolic: 82, pulse: 66, at: march5)
        let nonin = S.hex([0x0A, 0x00, 0x1E, 0x01, 0x10, 0x00, 0x07, 97, 0x00, 64])
        let devices = [
            S.indicatingDevice(address: "00:09:1F:00:00:02", name: "A&D_UA-651BLE_7A1C", service: "1810", characteristic: "2A35", payloads: [cuff], paired: true),
            S.indicatingDevice(address: "00:09:1F:00:00:03", name: "Tem BH", service: "1809", characteristic: "2A1C", payloads: [S.temperature(tenths: 366)]),
            S.indicatingDevice(address: "00:09:1F:00:00:04", name: "BLEsmart_00010105ABC", service: "181D", characteristic: "2A9D", payloads: [S.weight(grams: 70500)], paired: true),
            S.indicatingDevice(
                address: "00:09:1F:00:00:05", name: "Nonin3230_502", service: "46A970E0-0D5F-11E2-8B5E-0002A5D5C51B",
                characteristic: "0AAD7EA0-0D60-11E2-8E3C-0002A5D5C51B", payloads: [nonin]),
        ]
        var scenario = devices
        // The thermometer advertises the vendor service FFF0 but is read through the standard one.
        scenario[1]["advertised_uuids"] = ["FFF0"]
        let (_, controller) = try start(scenario)
        for (id, payload, address) in [(2, cuff, "00:09:1F:00:00:02"), (1, S.temperature(tenths: 366), "00:09:1F:00:00:03"),
                                       (27, S.weight(grams: 70500), "00:09:1F:00:00:04"), (13, nonin, "00:09:1F:00:00:05")] {
            let outcome = try controller.read(catalog[id]!)
            XCTAssertEqual(outcome.address, address, "peripheral \(id)")
            XCTAssertEqual(outcome.payloads.map { S.hex($0.bytes) }, [payload], "peripheral \(id)")
        }
    }

    func testAMeterThatNeverAnswersTimesOutWithNothing() throws {
        let (_, controller) = try start([S.glucoseMeter(records: threeRecords(), paired: true, faults: ["silent": true])])
        let started = Date()
        XCTAssertThrowsError(try controller.read(catalog[30]!)) { error in
            guard case .readingTimeout = error as? BLEError else { return XCTFail("\(error)") }
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), timings.readingTimeout!)
    }

    func testOneOperationAtATimeAndCancelStopsTheRunningOne() throws {
        let (_, controller) = try start([S.glucoseMeter(records: threeRecords(), paired: true, faults: ["silent": true])])
        controller.timings.readingTimeout = 30
        let finished = Recorder<String>()
        let thread = Thread { [catalog] in
            do {
                _ = try controller.read(catalog[30]!)
                finished.append("read")
            } catch {
                finished.append("\(error)")
            }
        }
        thread.start()
        let started = Date()
        while !controller.operationInProgress, Date().timeIntervalSince(started) < 5 { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertTrue(controller.operationInProgress)
        XCTAssertThrowsError(try controller.pair(catalog[30]!, agent: PairingAgent { _, _ in nil })) { error in
            XCTAssertEqual(error as? BLEError, .busy)
        }
        controller.cancel()
        while finished.items.isEmpty, Date().timeIntervalSince(started) < 10 { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(finished.items, [BLEError.cancelled.description])
        // Well before the 30 s reading timeout, and the controller is free again.
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertFalse(controller.operationInProgress)
    }

    func testAMeterThatDisconnectsMidTransferGivesNothingHalfRead() throws {
        let (_, controller) = try start([S.glucoseMeter(records: threeRecords(), paired: true, faults: ["disconnect_after_notifications": 2])])
        XCTAssertThrowsError(try controller.read(catalog[30]!)) { error in
            guard case .communicationFailure(let why) = error as? BLEError else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("nothing was kept"), why)
        }
    }

    func testPairingWithTheRightPINSucceedsAndWithAWrongOneOrNoneFails() throws {
        let meter = S.glucoseMeter(records: threeRecords(), pairing: ["pin": "123456"])
        let (_, controller) = try start([meter])
        // Unpaired, a meter that needs pairing is not read.
        XCTAssertThrowsError(try controller.read(catalog[30]!)) { error in
            guard case .pairingFailure(let why) = error as? BLEError else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("ble pair 30"), why)
        }
        XCTAssertThrowsError(try controller.pair(catalog[30]!, agent: PairingAgent { _, _ in "654321" })) { error in
            guard case .pairingFailure = error as? BLEError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try controller.pair(catalog[30]!, agent: PairingAgent { _, _ in nil })) { error in
            guard case .pairingFailure = error as? BLEError else { return XCTFail("\(error)") }
        }
        let requests = Recorder<PairingAgent.Request>()
        let device = try controller.pair(catalog[30]!, agent: PairingAgent { _, request in
            requests.append(request)
            return "123456"
        })
        // BlueZ itself now says so (not only the controller's answer).
        try controller.client.reload()
        XCTAssertEqual(controller.client.device(device.path)?.paired, true)
        XCTAssertEqual(requests.items, [.pinCode])
        XCTAssertEqual(try controller.read(catalog[30]!).payloads.count, 3)
    }

    func testRefusedPairingIsAPairingFailure() throws {
        let (_, controller) = try start([S.glucoseMeter(records: [], pairing: "refuse")])
        XCTAssertThrowsError(try controller.pair(catalog[30]!, agent: PairingAgent { _, _ in "1" })) { error in
            guard case .pairingFailure = error as? BLEError else { return XCTFail("\(error)") }
        }
    }

    func testAnAdapterThatIsOffOrADeviceThatIsAbsentFailsClearly() throws {
        let (_, off) = try start([S.glucoseMeter(records: threeRecords(), paired: true)], powered: false)
        XCTAssertThrowsError(try off.read(catalog[30]!)) { error in
            XCTAssertEqual((error as? BLEError)?.exitStatus, 23, "\(error)")
        }
        var absent = S.glucoseMeter(records: threeRecords(), paired: true)
        absent["advertising"] = false
        let (_, controller) = try start([absent])
        controller.timings.connectionTimeout = 0.5
        XCTAssertThrowsError(try controller.read(catalog[30]!)) { error in
            guard case .connectionTimeout(let why) = error as? BLEError else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("Accu-Chek"), why)
        }
    }

    func testAConnectionThatNeverCompletesTimesOut() throws {
        let (_, controller) = try start([S.glucoseMeter(records: threeRecords(), paired: true, faults: ["connect": "timeout"])])
        controller.timings.connectionTimeout = 0.5
        XCTAssertThrowsError(try controller.read(catalog[30]!)) { error in
            XCTAssertEqual((error as? BLEError)?.exitStatus, 26, "\(error)")
        }
    }
}

/// Collects what callbacks on other threads report.
final class Recorder<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Item] = []

    func append(_ item: Item) { lock.withLock { stored.append(item) } }
    var items: [Item] { lock.withLock { stored } }
}
