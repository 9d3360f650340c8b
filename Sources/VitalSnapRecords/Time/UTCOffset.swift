import Foundation

/// The offset from UTC of the clock a reading was taken by, in whole minutes.
///
/// Kept beside the timestamp (a `Date` has no zone) so that a record says what the wall clock showed: a glucose
/// reading before breakfast stays "07:10" even when it is uploaded after a flight. Written `+HH:MM` in record JSON,
/// the form Validic's mobile SDK sends (`VLDRecord.utcOffset`, `utc_offset`).
public struct UTCOffset: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Seconds east of UTC: `-14400` is `-04:00`.
    public let seconds: Int

    /// Offsets of real time zones lie within this range (ISO 8601 allows up to ±18 hours).
    public static let validSeconds = -18 * 3600...18 * 3600

    public static let utc = UTCOffset(uncheckedSeconds: 0)

    /// Nil unless `seconds` is a whole number of minutes within ±18 hours: `+HH:MM` cannot say anything else.
    public init?(seconds: Int) {
        guard Self.validSeconds.contains(seconds), seconds % 60 == 0 else { return nil }
        self.seconds = seconds
    }

    /// The offset `timeZone` had at `date`, to the nearest minute (historic local mean times had odd seconds).
    public init(timeZone: TimeZone, at date: Date) {
        let raw = timeZone.secondsFromGMT(for: date)
        let minutes = (Double(raw) / 60).rounded(.toNearestOrAwayFromZero)
        let clamped = min(max(Int(minutes) * 60, Self.validSeconds.lowerBound), Self.validSeconds.upperBound)
        self.init(uncheckedSeconds: clamped)
    }

    /// Parses `+05:30`, `-0400`, `+05`, and `Z` for UTC.
    public init?(parsing text: String) {
        let chars = Array(text.utf8)
        if chars == [UInt8(ascii: "Z")] || chars == [UInt8(ascii: "z")] {
            self = .utc
            return
        }
        guard let sign = chars.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        var digits = Array(chars.dropFirst())
        if digits.count == 5, digits[2] == UInt8(ascii: ":") { digits.remove(at: 2) }
        guard digits.count == 4 || digits.count == 2,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        let number = digits.map { Int($0 - UInt8(ascii: "0")) }
        let hours = number[0] * 10 + number[1]
        let minutes = digits.count == 4 ? number[2] * 10 + number[3] : 0
        guard minutes < 60 else { return nil }
        let magnitude = hours * 3600 + minutes * 60
        self.init(seconds: sign == UInt8(ascii: "-") ? -magnitude : magnitude)
    }

    private init(uncheckedSeconds: Int) {
        self.seconds = uncheckedSeconds
    }

    /// `+05:30`, `-04:00`; UTC is `+00:00` (not `Z`), as the Android SDK's `DateHelper` writes it.
    public var description: String {
        let magnitude = abs(seconds)
        let hours = magnitude / 3600, minutes = magnitude % 3600 / 60
        guard hours < 100 else { return (seconds < 0 ? "-" : "+") + ZeroPadded.text(hours) + ":" + ZeroPadded.text(minutes) }
        // Six bytes, written in place: every record's JSON has one or two.
        return String(unsafeUninitializedCapacity: 6) { buffer in
            buffer[0] = seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            buffer[1] = UInt8(ascii: "0") + UInt8(hours / 10)
            buffer[2] = UInt8(ascii: "0") + UInt8(hours % 10)
            buffer[3] = UInt8(ascii: ":")
            buffer[4] = UInt8(ascii: "0") + UInt8(minutes / 10)
            buffer[5] = UInt8(ascii: "0") + UInt8(minutes % 10)
            return 6
        }
    }

    public static func < (a: UTCOffset, b: UTCOffset) -> Bool { a.seconds < b.seconds }

    /// Encoded as `"+HH:MM"`. Decoding also accepts integer seconds, the form Validic's Inform v2 API returns.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Int.self) {
            guard let offset = UTCOffset(seconds: seconds) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "utc offset \(seconds) s is not whole minutes within ±18 h")
            }
            self = offset
            return
        }
        let text = try container.decode(String.self)
        guard let offset = UTCOffset(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not a utc offset (+HH:MM)")
        }
        self = offset
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
