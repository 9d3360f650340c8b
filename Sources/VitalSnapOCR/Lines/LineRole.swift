/// What a located line is on the display, as the trained detector tells it (the rule-based locator does not
/// know, and leaves it nil).
public enum LineRole: String, Sendable, Hashable, Codable {
    /// A measurement, or the word a display shows in its place (`LO`, `HI`, `Err`).
    case value
    /// Digits that are no measurement: a clock, a date, a memory number.
    case auxiliary
}
