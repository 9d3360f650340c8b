import Foundation
import XCTest
import VitalSnapCore

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
}
