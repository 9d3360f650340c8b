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

    func testANoninFrameGivenWithBlueZsLongUUIDAndItsMissingValueMarkers() throws {
        let folder = try makeTemporaryFolder()
        let uuid = "0aad7ea0-0d60-11e2-8e3c-0002a5d5c51b"
        let frame = try CLI.run(["ble", "decode", "-c", uuid, "0A001E0110000761 0040"], in: folder)
        XCTAssertEqual(frame.status, 0, frame.stderr)
        let json = try jsonObject(frame.stdout.replacingOccurrences(of: "\n", with: ""))
        XCTAssertEqual(json["spo2"] as? Int, 97)
        XCTAssertEqual(json["pulseRate"] as? Int, 64)
        // 127 % and 511 /min are the device's "no value".
        let missing = try CLI.run(["ble", "decode", "-c", uuid, "0A001E011000077F01FF"], in: folder)
        let empty = try jsonObject(missing.stdout.replacingOccurrences(of: "\n", with: ""))
        XCTAssertTrue(empty["spo2"] is NSNull, missing.stdout)
        XCTAssertTrue(empty["pulseRate"] is NSNull, missing.stdout)
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

/// `vitalsnap ble store-key`.
final class BLEStoreKeyCLITests: XCTestCase {
    private let uuid = "6f1c2b9e-5d4a-4e7b-9c1d-2a6b8e0f4d13"
    private let key = "00112233445566778899AABBCCDDEEFF"

    func testAKeyIsStoredPrivately() throws {
        let folder = try makeTemporaryFolder()
        let data = folder.appendingPathComponent("data")
        let stored = try CLI.run(["ble", "store-key", "--peripheral-uuid", uuid, key, "--data-dir", data.path], in: folder)
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertFalse(stored.stdout.contains(key), "the key is printed: \(stored.stdout)")
        let file = data.appendingPathComponent("ble-keys.json")
        var info = stat()
        XCTAssertEqual(stat(file.path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        XCTAssertEqual(json["keys"] as? [String: String], [uuid.uppercased(): key.lowercased()])

        // From standard input, for a second meter.
        let other = "A0000000-0000-4000-8000-000000000001"
        let piped = try CLI.run(
            ["ble", "store-key", "--peripheral-uuid", other, "-", "--data-dir", data.path], in: folder,
            input: String(repeating: "ab", count: 16) + "\n")
        XCTAssertEqual(piped.status, 0, piped.stderr)
        let both = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        XCTAssertEqual((both["keys"] as? [String: String])?[other], String(repeating: "ab", count: 16))
        XCTAssertEqual((both["keys"] as? [String: String])?.count, 2)
    }

    func testBadKeysAndUUIDsAreRefusedWithCleanMessages() throws {
        let folder = try makeTemporaryFolder()
        let data = folder.appendingPathComponent("data")
        let short = try CLI.run(
            ["ble", "store-key", "--peripheral-uuid", uuid, String(key.dropLast()), "--data-dir", data.path], in: folder)
        XCTAssertEqual(short.status, 64)
        XCTAssertTrue(short.stderr.contains("it has 31 digits, not 32"), short.stderr)
        XCTAssertFalse(short.stderr.contains("BLESecretsError"), short.stderr)
        let badUUID = try CLI.run(["ble", "store-key", "--peripheral-uuid", "C0:26:DA:01:02:03", key, "--data-dir", data.path], in: folder)
        XCTAssertEqual(badUUID.status, 64)
        XCTAssertTrue(badUUID.stderr.contains("C0:26:DA:01:02:03 is not a peripheral UUID"), badUUID.stderr)
        let piped = try CLI.run(
            ["ble", "store-key", "--peripheral-uuid", uuid, "-", "--data-dir", data.path], in: folder, input: "0x1234\n")
        XCTAssertEqual(piped.status, 64)
        XCTAssertTrue(piped.stderr.contains("starts with 0x"), piped.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("ble-keys.json").path))
        let help = try CLI.run(["ble", "store-key", "--help"], in: folder)
        XCTAssertTrue(help.stdout.contains("vitalsnap ble store-key --peripheral-uuid"), help.stdout)
    }
}
