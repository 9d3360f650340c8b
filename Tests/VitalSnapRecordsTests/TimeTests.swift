import Foundation
import VitalSnapRecords
import XCTest

final class TimeTests: XCTestCase {
    func testOffsetText() {
        XCTAssertEqual(UTCOffset(seconds: 0)?.description, "+00:00")
        XCTAssertEqual(UTCOffset(seconds: -14_400)?.description, "-04:00")
        XCTAssertEqual(UTCOffset(seconds: 19_800)?.description, "+05:30")
        XCTAssertEqual(UTCOffset(seconds: 20_700)?.description, "+05:45")
        XCTAssertEqual(UTCOffset(seconds: -34_200)?.description, "-09:30")
        XCTAssertEqual(UTCOffset(seconds: 50_400)?.description, "+14:00")
    }

    func testOffsetsThatHHMMCannotSayAreRefused() {
        XCTAssertNil(UTCOffset(seconds: 30))
        XCTAssertNil(UTCOffset(seconds: 19 * 3600))
        XCTAssertNil(UTCOffset(seconds: -19 * 3600))
    }

    func testOffsetParsing() {
        XCTAssertEqual(UTCOffset(parsing: "+05:30")?.seconds, 19_800)
        XCTAssertEqual(UTCOffset(parsing: "-0400")?.seconds, -14_400)
        XCTAssertEqual(UTCOffset(parsing: "+09")?.seconds, 32_400)
        XCTAssertEqual(UTCOffset(parsing: "Z")?.seconds, 0)
        for bad in ["", "05:30", "+5:30", "+05:60", "+05:3", "UTC", "+25:00"] {
            XCTAssertNil(UTCOffset(parsing: bad), bad)
        }
    }

    func testOffsetFromTimeZone() throws {
        let newYork = try XCTUnwrap(TimeZone(identifier: "America/New_York"))
        // Winter and summer time.
        XCTAssertEqual(UTCOffset(timeZone: newYork, at: Date(timeIntervalSince1970: 1_709_640_600)).description, "-05:00")
        XCTAssertEqual(UTCOffset(timeZone: newYork, at: Date(timeIntervalSince1970: 1_720_000_000)).description, "-04:00")
        XCTAssertEqual(UTCOffset(timeZone: try XCTUnwrap(TimeZone(secondsFromGMT: 19_800)), at: Date()).seconds, 19_800)
    }

    func testTimestampIsTheLocalWallClockWithItsOffset() throws {
        let instant = Date(timeIntervalSince1970: 1_709_640_600)  // 2024-03-05 12:10:00 UTC
        let minus5 = try XCTUnwrap(UTCOffset(seconds: -18_000))
        let plus530 = try XCTUnwrap(UTCOffset(seconds: 19_800))
        XCTAssertEqual(RecordTimestamp.string(from: instant, offset: minus5), "2024-03-05T07:10:00-05:00")
        XCTAssertEqual(RecordTimestamp.string(from: instant, offset: plus530), "2024-03-05T17:40:00+05:30")
        XCTAssertEqual(RecordTimestamp.string(from: instant, offset: .utc), "2024-03-05T12:10:00+00:00")
        // Fractions are dropped, and the date crosses midnight and leap days correctly.
        XCTAssertEqual(RecordTimestamp.string(from: Date(timeIntervalSince1970: 951_782_399.75), offset: .utc),
                       "2000-02-28T23:59:59+00:00")
        XCTAssertEqual(RecordTimestamp.string(from: Date(timeIntervalSince1970: 951_782_400), offset: .utc),
                       "2000-02-29T00:00:00+00:00")
        XCTAssertEqual(RecordTimestamp.string(from: Date(timeIntervalSince1970: -1), offset: .utc),
                       "1969-12-31T23:59:59+00:00")
    }

    func testTimestampParsing() throws {
        let parsed = try XCTUnwrap(RecordTimestamp.parse("2024-03-05T07:10:00-05:00"))
        XCTAssertEqual(parsed.date, Date(timeIntervalSince1970: 1_709_640_600))
        XCTAssertEqual(parsed.offset.seconds, -18_000)
        XCTAssertEqual(RecordTimestamp.parse("2024-03-05T12:10:00Z")?.date, Date(timeIntervalSince1970: 1_709_640_600))
        XCTAssertEqual(RecordTimestamp.parse("2024-03-05T12:10:00.500+00:00")?.date,
                       Date(timeIntervalSince1970: 1_709_640_600.5))
        for bad in ["2024-03-05T07:10:00", "2024-02-30T07:10:00Z", "2024-03-05 07:10", "yesterday", "2024-13-01T00:00:00Z"] {
            XCTAssertNil(RecordTimestamp.parse(bad), bad)
        }
    }

    func testTimestampRoundTripsOverManyDates() throws {
        var seconds: Int64 = -2_208_988_800  // 1900-01-01
        let offset = try XCTUnwrap(UTCOffset(seconds: -37_800))
        // Foundation's formatter, pinned to POSIX and the offset, as the independent reference.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone(secondsFromGMT: offset.seconds)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        while seconds < 4_102_444_800 {  // 2100-01-01
            let date = Date(timeIntervalSince1970: Double(seconds))
            let text = RecordTimestamp.string(from: date, offset: offset)
            XCTAssertEqual(text, formatter.string(from: date))
            XCTAssertEqual(RecordTimestamp.parse(text)?.date, date, text)
            seconds += 86_400 * 97 + 3_607
        }
    }
}
