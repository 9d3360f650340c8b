import Foundation
import VitalSnapRecords

/// Fixed headers, so JSON and equality tests do not depend on the clock or random IDs.
enum Fixtures {
    /// 2024-03-05 12:10:00 UTC.
    static let instant = Date(timeIntervalSince1970: 1_709_640_600)

    static func header(
        activityID: String = "3f1c2b9e-5d4a-4e7b-9c1d-2a6b8e0f4d13", timestamp: Date = instant,
        offsetSeconds: Int = -18_000, peripheralID: Int? = nil, extras: [String: String] = [:]
    ) -> RecordHeader {
        RecordHeader(
            activityID: activityID, timestamp: timestamp, utcOffset: UTCOffset(seconds: offsetSeconds)!,
            peripheralID: peripheralID, extras: extras)
    }
}
