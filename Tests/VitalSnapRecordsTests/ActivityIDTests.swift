import Foundation
@testable import VitalSnapRecords
import XCTest

final class ActivityIDTests: XCTestCase {
    func testIDsAreUniqueLowercaseUUIDs() {
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let id = ActivityID.generate()
            XCTAssertNotNil(UUID(uuidString: id), id)
            XCTAssertEqual(id, id.lowercased())
            XCTAssertTrue(seen.insert(id).inserted, "duplicate \(id)")
        }
    }

    func testEachNewRecordGetsItsOwnIDAndKeepsIt() throws {
        let a = try WeightRecord(header: RecordHeader(timestamp: Fixtures.instant, utcOffset: .utc), weight: 70)
        let b = try WeightRecord(header: RecordHeader(timestamp: Fixtures.instant, utcOffset: .utc), weight: 70)
        XCTAssertNotEqual(a.activityID, b.activityID)
        // The ID travels with the record through JSON: a retried upload carries the same one.
        let decoded = try RecordJSON.decode(RecordJSON.encode(Record.weight(a)))
        XCTAssertEqual(decoded.activityID, a.activityID)
    }

    // MARK: Derived (name-based) IDs

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func testSHA1MatchesTheFIPS180Vectors() {
        XCTAssertEqual(hex(SHA1.digest(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.digest([UInt8]())), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        // 56 bytes: the length no longer fits the first block, so padding takes a second one.
        XCTAssertEqual(
            hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(
            hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func testSHA1GivesTheSameDigestWhateverTheMessageIsCutInto() {
        let message = Array((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let whole = SHA1.digest(message)
        for cut in [1, 55, 63, 64, 65, 500, 999] {
            var hash = SHA1()
            hash.update(message[..<cut])
            hash.update(message[cut...])
            XCTAssertEqual(hash.finalize(), whole, "cut at \(cut)")
        }
        XCTAssertNotEqual(SHA1.digest(message.dropLast()), whole)
    }

    func testNameBasedUUIDMatchesRFC4122AndPython() throws {
        // RFC 4122 errata 1352 and Python's uuid.uuid5(uuid.NAMESPACE_DNS, "www.example.com").
        let dns = try XCTUnwrap(UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        XCTAssertEqual(ActivityID.nameBased(namespace: dns, name: "www.example.com"), "2ed6657d-e927-568b-95e1-2665a8aea6a2")
    }

    func testDerivedIDsAreVersion5RFC4122UUIDsInLowercase() throws {
        for name in ["", "a", "13|00:1C:05:AB:CD:EF|2A18|seq 7", String(repeating: "é", count: 300)] {
            let id = ActivityID.derived(from: name)
            let uuid = try XCTUnwrap(UUID(uuidString: id), id)
            XCTAssertEqual(id, id.lowercased())
            XCTAssertEqual(uuid.uuid.6 >> 4, 5, "version of \(id)")
            XCTAssertEqual(uuid.uuid.8 >> 6, 0b10, "variant of \(id)")
        }
    }

    func testDerivedIDsAreStableAndTellNamesApart() {
        let name = "15|C0:26:DA:01:02:03|2A18|7|2019-02-27 11:10:30"
        XCTAssertEqual(ActivityID.derived(from: name), ActivityID.derived(from: name))
        var seen = Set<String>()
        for sequence in 0..<2000 {
            XCTAssertTrue(seen.insert(ActivityID.derived(from: "15|C0:26:DA:01:02:03|2A18|\(sequence)")).inserted)
        }
        // Not the same as the same name in another namespace.
        XCTAssertNotEqual(ActivityID.derived(from: name), ActivityID.nameBased(namespace: UUID(), name: name))
    }
}
