import BlueZStandIn
import Foundation
import VitalSnapBluetooth
import XCTest

/// The D-Bus layer on a real private bus: values of every kind there and back, error replies, timeouts.
final class BusConnectionTests: XCTestCase {
    private func privateBus() throws -> PrivateBus {
        do { return try PrivateBus() } catch let error as PrivateBus.Unavailable { throw XCTSkip(error.description) }
    }

    /// A second connection that answers calls to /test/echo with their own arguments, pumped on a thread.
    private final class EchoPeer: @unchecked Sendable {
        let connection: BusConnection
        private let stop = NSLock()
        private var stopped = false
        private var thread: Thread?

        init(address: String) throws {
            connection = try BusConnection(address: address)
            connection.export(path: "/test/echo") { call in
                switch call.member {
                case "Echo": return .success((try? call.arguments()) ?? [])
                default: return .failure(BusRemoteError(name: "org.vitalsnap.Test.Error.Refused", text: "refused \(call.member ?? "")"))
                }
            }
            let thread = Thread { [self] in
                while !isStopped { _ = try? connection.nextSignal(timeout: 0.05) }
            }
            self.thread = thread
            thread.start()
        }

        var isStopped: Bool {
            stop.lock()
            defer { stop.unlock() }
            return stopped
        }

        func finish() {
            stop.lock()
            stopped = true
            stop.unlock()
            while thread?.isFinished == false { usleep(10_000) }
        }
    }

    func testEveryKindOfValueGoesThereAndBackUnchanged() throws {
        let bus = try privateBus()
        let peer = try EchoPeer(address: bus.address)
        defer { peer.finish() }
        let client = try BusConnection(address: bus.address)
        XCTAssertNotEqual(client.uniqueName, peer.connection.uniqueName)
        let values: [BusValue] = [
            .byte(0xFE), .boolean(true), .boolean(false), .int16(-2), .uint16(65535), .int32(-70000), .uint32(4_000_000_000),
            .int64(-5_000_000_000), .uint64(18_000_000_000_000_000_000), .double(-1.25), .string("Accu-Chek ünïcode"),
            .objectPath("/org/bluez/hci0/dev_00_09_1F_80_00_01"), .signature("a{sv}"),
            .bytes([0x1B, 0x01, 0x00, 0xE3, 0x07]), .bytes([]), .strings([]),
            .options(["Transport": .string("le"), "DuplicateData": .boolean(true), "UUIDs": .strings(["00001808-0000-1000-8000-00805f9b34fb"])]),
            .structure([.string("x"), .uint32(7), .array(elementSignature: "(sy)", [.structure([.string("y"), .byte(1)])])]),
            .variant(.variant(.int32(3))),
            .array(elementSignature: "{oa{sv}}", [.dictEntry(.objectPath("/a"), .options(["k": .bytes([1, 2])]))]),
        ]
        let echoed = try client.call(
            destination: peer.connection.uniqueName, path: "/test/echo", interface: "org.vitalsnap.Test", member: "Echo",
            arguments: values, timeout: 5)
        XCTAssertEqual(echoed, values)
        XCTAssertEqual(echoed[16].dictionary?["Transport"]?.string, "le")
        XCTAssertEqual(echoed[13].byteArray, [0x1B, 0x01, 0x00, 0xE3, 0x07])
    }

    func testAnErrorReplyKeepsItsNameAndMessage() throws {
        let bus = try privateBus()
        let peer = try EchoPeer(address: bus.address)
        defer { peer.finish() }
        let client = try BusConnection(address: bus.address)
        XCTAssertThrowsError(
            try client.call(
                destination: peer.connection.uniqueName, path: "/test/echo", interface: "org.vitalsnap.Test", member: "Other",
                timeout: 5)
        ) { error in
            XCTAssertEqual(error as? BusError, .remote(BusRemoteError(name: "org.vitalsnap.Test.Error.Refused", text: "refused Other")))
        }
        // A path nobody exports gets the standard error, not silence.
        XCTAssertThrowsError(
            try client.call(
                destination: peer.connection.uniqueName, path: "/nothing", interface: "org.vitalsnap.Test", member: "Echo",
                timeout: 5)
        ) { error in
            XCTAssertEqual((error as? BusError)?.remoteName, "org.freedesktop.DBus.Error.UnknownObject")
        }
    }

    func testACallNobodyAnswersTimesOut() throws {
        let bus = try privateBus()
        // Connected but never read: its calls are never answered.
        let silent = try BusConnection(address: bus.address)
        let client = try BusConnection(address: bus.address)
        let started = Date()
        XCTAssertThrowsError(
            try client.call(destination: silent.uniqueName, path: "/x", interface: "org.vitalsnap.Test", member: "Echo", timeout: 0.3)
        ) { error in
            guard case .timeout = error as? BusError else { return XCTFail("\(error)") }
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3)
    }

    func testAMissingBusIsAClearError() {
        XCTAssertThrowsError(try BusConnection(address: "unix:path=/nonexistent/vitalsnap-bus")) { error in
            guard case .cannotConnect(let address, _) = error as? BusError else { return XCTFail("\(error)") }
            XCTAssertEqual(address, "unix:path=/nonexistent/vitalsnap-bus")
        }
    }

    func testAnArrayElementOfTheWrongTypeIsRefusedBeforeSending() throws {
        let bus = try privateBus()
        let client = try BusConnection(address: bus.address)
        XCTAssertThrowsError(
            try client.call(
                destination: client.uniqueName, path: "/x", interface: "org.vitalsnap.Test", member: "Echo",
                arguments: [.array(elementSignature: "s", [.uint32(1)])], timeout: 1))
        { error in
            guard case .invalidArgument = error as? BusError else { return XCTFail("\(error)") }
        }
    }
}
