import Foundation
import VitalSnapRecords

/// A date as the export writes it, `2019-07-19 10:36:11 -0700`: the instant and the wall clock's offset.
/// Parsed by hand (a DateFormatter per attribute would dominate an import of millions of samples).
public struct HealthDate: Hashable, Comparable, Sendable {
    /// Seconds since 1970 UTC.
    public var seconds: Int64
    /// The offset of the wall clock the sample was taken in.
    public var offset: UTCOffset

    public init(seconds: Int64, offset: UTCOffset) {
        self.seconds = seconds
        self.offset = offset
    }

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    /// Days since 1970-01-01 of the local calendar day, in the sample's own offset: what day totals are keyed by
    /// (a number: formatting a date per sample would cost more than the rest of the sample's import).
    public var localDayNumber: Int {
        let local = seconds + Int64(offset.seconds)
        return Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }

    /// The local calendar day, `2019-07-19`, in the sample's own offset.
    public var localDay: String { Self.dayText(localDayNumber) }

    /// `2019-07-19` for a day number.
    public static func dayText(_ dayNumber: Int) -> String {
        let (y, m, d) = RecordTimestamp.civilDate(daysSince1970: Int64(dayNumber))
        var bytes = [UInt8](repeating: 0x30, count: 10)
        var year = y
        for index in stride(from: 3, through: 0, by: -1) {
            bytes[index] = 0x30 + UInt8(year % 10)
            year /= 10
        }
        bytes[4] = 0x2D
        bytes[5] = 0x30 + UInt8(m / 10)
        bytes[6] = 0x30 + UInt8(m % 10)
        bytes[7] = 0x2D
        bytes[8] = 0x30 + UInt8(d / 10)
        bytes[9] = 0x30 + UInt8(d % 10)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The local hour, 0-23, in the sample's own offset.
    public var localHour: Int {
        let local = seconds + Int64(offset.seconds)
        return Int(((local % 86_400) + 86_400) % 86_400 / 3600)
    }

    /// The start of the local hour this instant is in.
    public var startOfLocalHour: HealthDate {
        let local = seconds + Int64(offset.seconds)
        let floored = local - ((local % 3600) + 3600) % 3600
        return HealthDate(seconds: floored - Int64(offset.seconds), offset: offset)
    }

    public static func < (a: HealthDate, b: HealthDate) -> Bool { a.seconds < b.seconds }

    /// `YYYY-MM-DD HH:MM:SS ±HHMM`; nil for anything else. Bytes after the 25 are not looked at.
    public init?(parsing text: UnsafeRawBufferPointer) {
        // Fixed positions: "2019-07-19 10:36:11 -0700" is 25 characters.
        guard text.count >= 25 else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for i in at..<at + count {
                let c = Int(text[i])
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + c - 48
            }
            return value
        }
        guard text[4] == 45, text[7] == 45, text[10] == 32, text[13] == 58, text[16] == 58, text[19] == 32,
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
            let minute = digits(14, 2), let second = digits(17, 2), let offsetHours = digits(21, 2), let offsetMinutes = digits(23, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let sign: Int
        switch text[20] {
        case 43: sign = 1  // +
        case 45: sign = -1  // -
        default: return nil
        }
        guard let offset = UTCOffset(seconds: sign * (offsetHours * 3600 + offsetMinutes * 60)) else { return nil }
        let local = RecordTimestamp.daysSince1970(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(seconds: local - Int64(offset.seconds), offset: offset)
    }

    public init?(parsing text: UnsafePointer<CChar>) {
        self.init(parsing: UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    public init?(parsing text: String) {
        guard let parsed = text.withCString({ HealthDate(parsing: $0) }) else { return nil }
        self = parsed
    }
}
