import Foundation
import VitalSnapCore
import XCTest
@testable import VitalSnapBluetooth

/// The licensed-kit keys in the data directory: the vendors' key files read and checked, the per-meter keys
/// stored privately and found again.
final class BLEDeviceSecretsTests: XCTestCase {
    private let uuid = "6f1c2b9e-5d4a-4e7b-9c1d-2a6b8e0f4d13"
    private let key = "00112233445566778899AABBCCDDEEFF"

    private func makeSecrets() throws -> BLEDeviceSecrets {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-secrets-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return BLEDeviceSecrets(directory: DataDirectory(path: folder.appendingPathComponent("data").path))
    }

    private func writeKeyFile(_ text: String, for vendor: BLEKitVendor, in secrets: BLEDeviceSecrets) throws {
        try secrets.directory.create()
        try Data(text.utf8).write(to: URL(fileURLWithPath: secrets.keyFilePath(for: vendor)))
    }

    func testVendorKeysAreReadFromTheirFiles() throws {
        let secrets = try makeSecrets()
        try writeKeyFile(#"{"key": "00a1FF"}"#, for: .agaMatrix, in: secrets)
        try writeKeyFile(#"{"key": "0102030405"}"#.replacingOccurrences(of: "05", with: "0506"), for: .cvsHealth, in: secrets)
        XCTAssertEqual(try secrets.key(for: .agaMatrix), [0x00, 0xA1, 0xFF])
        XCTAssertEqual(try secrets.key(for: .cvsHealth), [1, 2, 3, 4, 5, 6])
        XCTAssertTrue(secrets.keyFilePath(for: .agaMatrix).hasSuffix("/agamatrix-authkey.json"))
        XCTAssertTrue(secrets.keyFilePath(for: .cvsHealth).hasSuffix("/cvshealth-authkey.json"))
        XCTAssertEqual(BLEKitVendor(peripheralID: 32), .agaMatrix)
        XCTAssertEqual(BLEKitVendor(peripheralID: 33), .cvsHealth)
        XCTAssertNil(BLEKitVendor(peripheralID: 51))
    }

    func testBadVendorKeyFilesAreNamedInTheirErrors() throws {
        let secrets = try makeSecrets()
        let path = secrets.keyFilePath(for: .agaMatrix)
        XCTAssertThrowsError(try secrets.key(for: .agaMatrix)) { error in
            XCTAssertEqual(error as? BLESecretsError, .keyFileMissing(vendor: .agaMatrix, path: path))
            XCTAssertTrue("\(error)".contains("agamatrix-authkey.json"), "\(error)")
        }
        let cases: [(String, String)] = [
            (#"{"key": "abc"}"#, "odd number"),
            (#"{"key": "0xab"}"#, "0x"),
            (#"{"key": "abzz"}"#, "\"z\" is not a hexadecimal digit"),
            (#"{"key": ""}"#, "empty"),
            (#"{"key": 1234}"#, "\"key\" is not text"),
            (#"{"secret": "abcd"}"#, "no \"key\""),
            ("abcd", "not JSON"),
        ]
        for (content, expected) in cases {
            try writeKeyFile(content, for: .agaMatrix, in: secrets)
            XCTAssertThrowsError(try secrets.key(for: .agaMatrix), content) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(path), message)
                XCTAssertTrue(message.contains(expected), "\(content): \(message)")
            }
        }
    }

    func testAMetersKeyIsStoredPrivatelyAndFoundByItsUUID() throws {
        let secrets = try makeSecrets()
        XCTAssertNil(try secrets.key(forPeripheralUUID: uuid))
        try secrets.store(key: key, forPeripheralUUID: uuid)
        var info = stat()
        XCTAssertEqual(stat(secrets.storedKeysPath, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let expected: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
        XCTAssertEqual(try secrets.key(forPeripheralUUID: uuid), expected)
        XCTAssertEqual(try secrets.key(forPeripheralUUID: uuid.uppercased()), expected)
        // A second meter beside it, then the first one's key replaced.
        let other = "A0000000-0000-4000-8000-000000000001"
        try secrets.store(key: String(repeating: "ab", count: 16), forPeripheralUUID: other)
        try secrets.store(key: String(repeating: "01", count: 16), forPeripheralUUID: uuid)
        XCTAssertEqual(try secrets.key(forPeripheralUUID: uuid), [UInt8](repeating: 0x01, count: 16))
        XCTAssertEqual(try secrets.key(forPeripheralUUID: other), [UInt8](repeating: 0xAB, count: 16))
        // Only the key file: no temporary file left beside it.
        let names = try FileManager.default.contentsOfDirectory(atPath: secrets.directory.path).filter { $0.contains("ble-keys") }
        XCTAssertEqual(names, ["ble-keys.json"])
    }

    func testBadKeysAndUUIDsAreRefusedAndNothingIsWritten() throws {
        let secrets = try makeSecrets()
        let refused: [(String, String, String)] = [
            (String(key.dropLast()), uuid, "31 digits, not 32"),
            (key + "00", uuid, "34 digits, not 32"),
            (String(key.dropLast()) + "G", uuid, "\"G\" is not a hexadecimal digit"),
            (key, "not-a-uuid", "not-a-uuid is not a peripheral UUID"),
            (key, "C0:26:DA:01:02:03", "is not a peripheral UUID"),
        ]
        for (key, uuid, expected) in refused {
            XCTAssertThrowsError(try secrets.store(key: key, forPeripheralUUID: uuid), key) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: secrets.storedKeysPath))
    }

    func testADamagedKeysFileIsReportedNotOverwritten() throws {
        let secrets = try makeSecrets()
        try secrets.directory.create()
        try Data("{\"keys\": {\"nope\": \"zz\"}}".utf8).write(to: URL(fileURLWithPath: secrets.storedKeysPath))
        XCTAssertThrowsError(try secrets.store(key: key, forPeripheralUUID: uuid)) { error in
            guard case .malformedStoredKeys = error as? BLESecretsError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try String(contentsOfFile: secrets.storedKeysPath, encoding: .utf8), "{\"keys\": {\"nope\": \"zz\"}}")
    }
}
