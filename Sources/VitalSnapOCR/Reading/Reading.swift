import VitalSnapImaging

/// The value of one field as read from the display.
public struct FieldValue: Sendable, Hashable, Codable {
    public var field: FieldName
    /// As shown, e.g. `5.6` or `123` (leading zeros kept for numeric displays).
    public var text: String
    public var value: Double
    public var unit: String
    public var decimals: Int
    public var confidence: Double

    public init(field: FieldName, text: String, value: Double, unit: String, decimals: Int, confidence: Double) {
        self.field = field
        self.text = text
        self.value = value
        self.unit = unit
        self.decimals = decimals
        self.confidence = confidence
    }
}

/// What one frame or photo shows, for one peripheral.
public enum ReadingOutcome: Sendable, Hashable {
    /// Every measurement field read and plausible.
    case values([FieldValue])
    /// The display shows a word instead of a value (`LO`, `HI`, `Err`): never a number.
    case word(String)
    /// Nothing trustworthy: why (its kind, and in words a user understands).
    case none(Refusal)
}

public struct Reading: Sendable {
    public var outcome: ReadingOutcome
    /// 0...1, the least clear character of the fields used.
    public var confidence: Double
    /// All lines found, top to bottom, as recognized (`?` for unreadable characters): the partial result.
    public var recognizedText: String
    /// The lines that made up the reading, in field order.
    public var lines: [RecognizedLine]

    public init(outcome: ReadingOutcome, confidence: Double, recognizedText: String, lines: [RecognizedLine]) {
        self.outcome = outcome
        self.confidence = confidence
        self.recognizedText = recognizedText
        self.lines = lines
    }

    /// Nothing is read, for `why` (a check after the assembler found the reading untrustworthy).
    public mutating func refuse(_ why: Refusal) {
        outcome = .none(why)
        confidence = 0
    }

    /// Why nothing is read; nil for a value or a word.
    public var refusal: Refusal? {
        if case .none(let why) = outcome { return why }
        return nil
    }

    public var values: [FieldValue] {
        if case .values(let v) = outcome { return v }
        return []
    }

    /// The word the display shows instead of a value, if it does.
    public var word: String? {
        if case .word(let w) = outcome { return w }
        return nil
    }

    /// The rectangle around the lines that made up the reading; nil when there are none.
    public var linesBox: PixelRect? {
        guard let first = lines.first else { return nil }
        return lines.dropFirst().reduce(first.boundingBox) { $0.union($1.boundingBox) }
    }

    /// The tallest digit height of those lines (0 without lines).
    public var digitHeight: Double { lines.lazy.map { $0.digitHeight }.max() ?? 0 }

    /// The reading string users and scripts see: `123`, `5.6`, `120/80/72`; nil without a value.
    public var readingString: String? {
        // Appended piece by piece, as `RecognizedLine.text`, so a short reading allocates nothing.
        let v = values
        guard let first = v.first else { return nil }
        var text = first.text
        for value in v.dropFirst() {
            text += "/"
            text += value.text
        }
        return text
    }
}
