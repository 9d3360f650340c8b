import VitalSnapHealth
import VitalSnapRecords
import XCTest

final class HealthDateTests: XCTestCase {
    func testTheExportsDateFormatGivesTheInstantAndTheWallClocksOffset() throws {
        let date = try XCTUnwrap(HealthDate(parsing: "2019-07-19 10:36:11 -0700"))
        // 2019-07-19T17:36:11Z.
        XCTAssertEqual(date.seconds, 1_563_557_771)
        XCTAssertEqual(date.offset.seconds, -7 * 3600)
        XCTAssertEqual(date.localDay, "2019-07-19")
        // Just after local midnight in a zone east of UTC is still the previous day in UTC, not locally.
        XCTAssertEqual(HealthDate(parsing: "2024-03-01 00:30:00 +0530")?.localDay, "2024-03-01")
        XCTAssertEqual(HealthDate(parsing: "2024-02-29 23:59:59 -1000")?.localDay, "2024-02-29")
        XCTAssertEqual(HealthDate(parsing: "1969-12-31 23:00:00 +0000")?.seconds, -3600)
    }

    func testAnythingElseIsRefused() {
        for text in ["", "2019-07-19", "2019-07-19T10:36:11-07:00", "2019-13-19 10:36:11 -0700", "2019-07-19 10:36:11 0700",
                     "2019-07-19 25:36:11 -0700", "2019-07-x9 10:36:11 -0700"] {
            XCTAssertNil(HealthDate(parsing: text), text)
        }
    }
}
