import Foundation

/// The timestamp format of record JSON: ISO 8601 local time with its offset, to the second,
/// `2024-03-05T07:10:00-05:00` (`yyyy-MM-dd'T'HH:mm:ssxxx`, the pattern in Validic's iOS and Android SDKs).
///
/// Written by arithmetic rather than a `DateFormatter`: the output must not depend on the process's locale,
/// calendar or time zone, and formatters are neither cheap nor `Sendable`.
public enum RecordTimestamp {
    /// `date` as the wall clock at `offset` showed it. Fractions of a second are dropped.
    public static func string(from date: Date, offset: UTCOffset) -> String {
        let local = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset.seconds)
        let (days, secondOfDay) = floorDivision(local, by: 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = Int(secondOfDay / 3600), minute = Int(secondOfDay % 3600 / 60), second = Int(secondOfDay % 60)
        guard (0...9999).contains(year) else {
            let date = ZeroPadded.text(year, width: 4) + "-" + ZeroPadded.text(month) + "-" + ZeroPadded.text(day)
            let time = ZeroPadded.text(hour) + ":" + ZeroPadded.text(minute) + ":" + ZeroPadded.text(second)
            return date + "T" + time + offset.description
        }
        // Written into one buffer: an import formats hundreds of thousands of these.
        let offsetText = offset.description
        return String(unsafeUninitializedCapacity: 19 + offsetText.utf8.count) { buffer in
            func put(_ value: Int, _ width: Int, at start: Int) {
                var rest = value
                for index in stride(from: start + width - 1, through: start, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(hour, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(minute, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(second, 2, at: 17)
            var index = 19
            for byte in offsetText.utf8 {
                buffer[index] = byte
                index += 1
            }
            return index
        }
    }

    /// Parses `2024-03-05T07:10:00-05:00`, also with fractional seconds, `Z`, or a `-0500` offset.
    /// Nil for anything else, including a timestamp without an offset (its instant would be a guess).
    public static func parse(_ text: String) -> (date: Date, offset: UTCOffset)? {
        let chars = Array(text.utf8)
        guard chars.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let c = chars[i]
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(c - UInt8(ascii: "0"))
            }
            return value
        }
        func isChar(_ i: Int, _ c: Unicode.Scalar) -> Bool { chars[i] == UInt8(ascii: c) }
        guard isChar(4, "-"), isChar(7, "-"), isChar(10, "T") || isChar(10, "t") || isChar(10, " "),
            isChar(13, ":"), isChar(16, ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if isChar(index, ".") {
            var scale = 0.1
            index += 1
            let start = index
            while index < chars.count, let digit = number(index..<index + 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < chars.count,
            let offsetText = String(bytes: chars[index...], encoding: .utf8),
            let offset = UTCOffset(parsing: offsetText)
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let local = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second) + fraction
        return (Date(timeIntervalSince1970: local - Double(offset.seconds)), offset)
    }

    private static func floorDivision(_ a: Int64, by b: Int64) -> (quotient: Int64, remainder: Int64) {
        let q = a >= 0 ? a / b : -((-a + b - 1) / b)
        return (q, a - q * b)
    }

    // Proleptic Gregorian calendar day numbers, after Howard Hinnant's `days_from_civil` / `civil_from_days`.
    // Public for the other modules that read dates by hand (Apple Health exports).

    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
