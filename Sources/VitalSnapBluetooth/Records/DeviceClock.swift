import Foundation
import VitalSnapRecords

/// A device's clock: GATT date-times are its local wall-clock time with no zone, so they are read at the UTC
/// offset the device's clock is taken to keep (the phone's, where the person set it from the phone).
struct DeviceClock: Sendable {
    let offset: UTCOffset

    /// The instant `time` names, `minutes` later; nil when the device does not know the date (year, month or day
    /// 0) or names one that does not exist (31 April).
    func date(of time: GATTDateTime, addingMinutes minutes: Int = 0) -> Date? {
        guard let year = time.year, let month = time.month, let day = time.day,
            let zone = TimeZone(secondsFromGMT: offset.seconds)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day, hour: time.hours, minute: time.minutes, second: time.seconds)
        // Calendar rolls an impossible date over (31 April becomes 1 May): reading it back tells.
        guard let date = calendar.date(from: components),
            calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        return date.addingTimeInterval(TimeInterval(minutes * Self.secondsPerMinute))
    }

    private static let secondsPerMinute = 60
}
