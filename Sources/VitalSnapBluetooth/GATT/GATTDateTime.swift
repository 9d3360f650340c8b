/// The Date Time characteristic's 7 bytes (0x2A08) as health measurements embed them: year (0 unknown), month
/// (0 unknown), day (0 unknown), hours, minutes, seconds, in the device's local time.
public struct GATTDateTime: Equatable, Sendable, CustomStringConvertible {
    /// nil when the device does not know it (0).
    public var year: Int?
    public var month: Int?
    public var day: Int?
    public var hours: Int
    public var minutes: Int
    public var seconds: Int

    init(year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int, characteristic: String) throws(GATTDecodeError) {
        func check(_ value: Int, _ range: ClosedRange<Int>, _ field: String) throws(GATTDecodeError) {
            guard range.contains(value) else {
                throw .invalidField(characteristic: characteristic, field: "date and time", detail: "\(field) \(value) is outside \(range)")
            }
        }
        if year != 0 { try check(year, 1582...9999, "year") }
        try check(month, 0...12, "month")
        try check(day, 0...31, "day")
        try check(hours, 0...23, "hour")
        try check(minutes, 0...59, "minute")
        try check(seconds, 0...59, "second")
        self.year = year == 0 ? nil : year
        self.month = month == 0 ? nil : month
        self.day = day == 0 ? nil : day
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// `2019-02-27 11:10:30`, with `????`/`??` for unknown parts.
    public var description: String {
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "??" }
        return "\(year.map(String.init) ?? "????")-\(two(month))-\(two(day)) \(two(hours)):\(two(minutes)):\(two(seconds))"
    }
}
