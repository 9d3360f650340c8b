import VitalSnapOCR

/// A word a meter shows instead of a value.
public enum DisplayWord: String, Sendable, Hashable, CaseIterable {
    /// Below the measuring range.
    case lo = "LO"
    /// Above the measuring range.
    case hi = "HI"
    /// Strip or measurement error.
    case err = "Err"
}

/// What a display shows: the text of each field and the reading a correct reader reports for it.
public struct DisplayContent: Sendable, Hashable {
    /// Text per field as laid into its cells by `FieldCells.layout` (`"5.6"`, `"12:34"`, `"05-17"`, `"LO"`).
    public var texts: [FieldName: String]
    /// The reading string: measurement fields in the definition's order joined by `/` (`120/80/72`, `5.6`),
    /// or the word shown (`LO`).
    public var reading: String
    /// The unit of the first measurement field (`mg/dL`, `mmHg`, `°C`).
    public var unit: String
    /// Set when the display shows a word instead of a value.
    public var word: DisplayWord?
    /// The measurement values in units of 10^-decimals (`5.6` -> 56), in field order; empty for words.
    public var scaledValues: [Int]

    public init(texts: [FieldName: String], reading: String, unit: String, word: DisplayWord?, scaledValues: [Int]) {
        self.texts = texts
        self.reading = reading
        self.unit = unit
        self.word = word
        self.scaledValues = scaledValues
    }
}
