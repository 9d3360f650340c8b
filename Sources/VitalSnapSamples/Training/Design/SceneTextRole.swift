/// What a text element of a training scene is (Training/README.md, "Line roles").
public enum SceneTextRole: String, Sendable, Hashable, CaseIterable {
    /// A measurement, or the word a display shows in its place (`LO`, `HI`, `Err`, `---`).
    case value
    /// A time of day.
    case clock
    /// A date.
    case date
    /// A memory, user or record number.
    case memory
    /// Printed or segment text that is not a number: units, legends, words.
    case unit
    /// Battery, heart, drop, bars and other symbols.
    case icon

    /// Roles whose text the recognizer reads (and that get line crops with their text).
    public var isReading: Bool {
        switch self {
        case .value, .clock, .date, .memory: true
        case .unit, .icon: false
        }
    }
}

/// The recognizer's alphabet (after the CTC blank): what the text of a reading line may hold.
public enum RecognizerAlphabet {
    public static let characters = "0123456789.-:LOHIEro"

    /// True when every character of `text` is in the alphabet (an empty text is valid).
    public static func contains(_ text: String) -> Bool {
        text.allSatisfy { characters.contains($0) }
    }
}
