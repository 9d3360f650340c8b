import Foundation
import XCTest

/// `vitalsnap ble decode`: a payload in hex in, what it decodes to out, as a person debugging a meter uses it.
final class BLEDecodeCLITests: XCTestCase {
    func testABloodPressureReferenceVectorDecodesToJSON() throws {
        let folder = try makeTemporaryFolder()
        // Nordic's BloodPressureMeasurementDataCallbackTest vector, given as one run of hex digits.
        let result = try CLI.run(["ble", "decode", "-c", "2a35", "1E8A00580078000000041114293B3C00012700"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try jsonObject(result.stdout.replacingOccurrences(of: "\n", with: ""))
        XCTAssertEqual(json["systolic"] as? Int, 138)
        XCTAssertEqual(json["diastolic"] as? Int, 88)
        XCTAssertEqual(json["pulseRate"] as? Int, 60)
        XCTAssertEqual(json["timestamp"] as? String, "????-04-17 20:41:59")
        XCTAssertEqual(json["status"] as? String, "0x0027")
    }

    func testSpecialValuesArePrintedAsTheirNames() throws {
        let folder = try makeTemporaryFolder()
        // PLX continuous: SpO2 NaN (0x07FF), pulse NRes (0x0800), byte by byte with colons.
        let result = try CLI.run(["ble", "decode", "-c", "2A5F", "00:FF:07:00:08"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try jsonObject(result.stdout.replacingOccurrences(of: "\n", with: ""))
        XCTAssertEqual(json["spo2"] as? String, "NaN")
        XCTAssertEqual(json["pulseRate"] as? String, "NRes")
    }

    func testARecordAccessResponse() throws {
        let folder = try makeTemporaryFolder()
        let result = try CLI.run(["ble", "decode", "-c", "2A52", "06 00 01 06"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try jsonObject(result.stdout.replacingOccurrences(of: "\n", with: ""))["response"] as? String, "no records found")
    }

    func testBadValuesGetClearErrors() throws {
        let folder = try makeTemporaryFolder()
        let cut = try CLI.run(["ble", "decode", "-c", "2A1C", "06 B0 0E 00 FE DC 07 0C 05 0B 32 1B"], in: folder)
        XCTAssertEqual(cut.status, 1)
        XCTAssertTrue(cut.stderr.contains("Temperature Measurement (2A1C): the value ends before its temperature type"), cut.stderr)
        let unknown = try CLI.run(["ble", "decode", "-c", "2A99", "00"], in: folder)
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("(2A18, 2A34, 2A52, 2A35"), unknown.stderr)
        let odd = try CLI.run(["ble", "decode", "-c", "2A37", "0x1"], in: folder)
        XCTAssertEqual(odd.status, 64)
        XCTAssertTrue(odd.stderr.contains("pairs of hexadecimal digits"), odd.stderr)
    }
}

/// `vitalsnap ble peripherals`.
final class BLEPeripheralsCLITests: XCTestCase {
    func testListsPeripheralsWithTheirInstructions() throws {
        let folder = try makeTemporaryFolder()
        let all = try CLI.run(["ble", "peripherals"], in: folder)
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stdout.contains("15  Nipro TRUE METRIX AIR (glucose meter)"), all.stdout)
        XCTAssertTrue(all.stdout.contains("18  ForaCare IR20b (thermometer)  [disabled]"), all.stdout)
        XCTAssertTrue(all.stdout.contains("15  Nipro TRUE METRIX AIR (glucose meter)\n    VitalSnap reads it: yes\n"), all.stdout)
        XCTAssertTrue(all.stdout.contains("3  Pyle Health PHBPB20 (blood pressure monitor)\n    VitalSnap reads it: no (vendor protocol not public)\n"), all.stdout)
        XCTAssertTrue(all.stdout.contains(
            "51  Roche CoaguChek INRange (coagulation meter)\n    VitalSnap reads it: no (protocol not public: needs the vendor's licensed kit and key)\n"),
            all.stdout)
        let glucose = try CLI.run(["ble", "peripherals", "--type", "glucoseMeter", "--json"], in: folder)
        XCTAssertEqual(glucose.status, 0, glucose.stderr)
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(glucose.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.compactMap { $0["id"] as? Int }, [15, 20, 23, 29, 30, 32, 33, 1000])
        // Every glucose meter VitalSnap reads says how to pair it; the licensed-kit ones are not paired by it.
        for entry in entries {
            XCTAssertEqual(entry["pairingInstructions"] is String, entry["requiresLicensedKit"] as? Bool == false, "\(entry)")
        }
        XCTAssertEqual(entries.filter { $0["readable"] as? Bool == false }.compactMap { $0["id"] as? Int }, [32, 33])
        XCTAssertEqual(entries.first { $0["id"] as? Int == 32 }?["unreadableReason"] as? String,
                       "protocol not public: needs the vendor's licensed kit and key")
        XCTAssertTrue(entries.first { $0["id"] as? Int == 15 }?["unreadableReason"] is NSNull)
        let bad = try CLI.run(["ble", "peripherals", "--type", "toaster"], in: folder)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("glucoseMeter"), bad.stderr)
    }
}

