import XCTest
@testable import VitalSnapBluetooth

/// The Nonin 3230's vendor frame, laid out as the public emulator of the device sends it (validic-sdk-facts.md, 1b).
final class NoninOximetryFrameTests: XCTestCase {
    func testAFrameDecodesBigEndian() throws {
        let frame = try NoninOximetryFrame([0x0A, 0x15, 0x1E, 0x01, 0x2C, 0x00, 0x05, 0x61, 0x00, 0x48])
        XCTAssertEqual(frame.status, 0x15)
        XCTAssertEqual(frame.battery, 0x1E)
        XCTAssertEqual(frame.pulseAmplitudeIndex, 300)
        XCTAssertEqual(frame.counter, 5)
        XCTAssertEqual(frame.spo2, 97)
        XCTAssertEqual(frame.pulseRate, 72)
        // The pulse's high byte counts 256: 0x0104 is 260, not 1025.
        XCTAssertEqual(try NoninOximetryFrame([0x0A, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x5F, 0x01, 0x04]).pulseRate, 260)
        XCTAssertEqual(try NoninOximetryFrame([0x0A, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x5F, 0x01, 0x04]).counter, 256)
    }

    func testMissingValuesAreNil() throws {
        let frame = try NoninOximetryFrame([0x0A, 0x15, 0x1E, 0x00, 0x00, 0x00, 0x06, 0x7F, 0x01, 0xFF])
        XCTAssertNil(frame.spo2)
        XCTAssertNil(frame.pulseRate)
        let pulseOnly = try NoninOximetryFrame([0x0A, 0x15, 0x1E, 0x00, 0x00, 0x00, 0x06, 0x7F, 0x00, 0x50])
        XCTAssertNil(pulseOnly.spo2)
        XCTAssertEqual(pulseOnly.pulseRate, 80)
    }

    func testBadFramesAreRefusedWithTheirReason() {
        let good: [UInt8] = [0x0A, 0x15, 0x1E, 0x01, 0x2C, 0x00, 0x05, 0x61, 0x00, 0x48]
        for length in 0..<good.count {
            XCTAssertThrowsError(try NoninOximetryFrame(Array(good.prefix(length))), "\(length) bytes") { error in
                guard case .tooShort = error as? GATTDecodeError else { return XCTFail("\(error)") }
            }
        }
        var wrongLength = good
        wrongLength[0] = 0x0B
        XCTAssertThrowsError(try NoninOximetryFrame(wrongLength)) { error in
            XCTAssertEqual(
                error as? GATTDecodeError,
                .invalidField(characteristic: "Nonin 3230 oximetry frame", field: "length", detail: "11 is not 10"))
        }
    }

    func testUUIDsAreWrittenOneWay() {
        XCTAssertEqual(BLEUUID.normalized("00002a18-0000-1000-8000-00805f9b34fb"), "2A18")
        XCTAssertEqual(BLEUUID.normalized("0x2a35"), "2A35")
        XCTAssertEqual(BLEUUID.normalized("2a37"), "2A37")
        XCTAssertEqual(BLEUUID.normalized("0aad7ea0-0d60-11e2-8e3c-0002a5d5c51b"), NoninOximetryFrame.characteristicUUID)
        // A vendor UUID is not on the base UUID and stays whole.
        XCTAssertEqual(BLEUUID.normalized("23434101-1fe4-1eff-80cb-00ff78297d8b"), "23434101-1FE4-1EFF-80CB-00FF78297D8B")
        XCTAssertEqual(BLEUUID.short(0x2A9D), "2A9D")
        XCTAssertEqual(BLEUUID.short(0x0A18), "0A18")
    }
}
