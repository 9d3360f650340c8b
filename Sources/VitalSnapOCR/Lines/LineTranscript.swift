/// What a recognizer read in one rectified line.
public struct LineTranscript: Sendable {
    /// Left to right, with their boxes in the rectified line's pixels.
    public var characters: [RecognizedCharacter]
    /// Gray-level spread between background and ink in the digit band.
    public var contrast: Int
    /// A character may be missing: a digit-sized gap inside the number, or an unreadable character at the
    /// place where the number would continue.
    public var hasGap: Bool
    /// Share of the band around the characters covered by ink that belongs to none of them: high for texture,
    /// printed text or a line read with the wrong polarity.
    public var noise: Double
    /// The line's other views (`ViewAgreement`) made a reading that was sure enough alone too unsure to give:
    /// the characters are there, their reading is in doubt (every confidence is then 0).
    public var viewsDisagree = false
    /// How sure the recognizer is of the line as a whole, beyond each character's own confidence: the trained
    /// recognizer's probability of the text read over all its alignments, which a character that may be missing
    /// or extra lowers too (1 where the recognizer says nothing more than its characters, as the rule-based
    /// one). A reading is only as sure as this and its least sure character; whether the characters are digits
    /// at all is told by theirs alone.
    public var lineConfidence: Double = 1
    /// The recognizer's probability of the text with a `1` before it: a thin leading 1 it may have missed (0
    /// where it says nothing of it, as the rule-based recognizer).
    public var leadingOneProbability: Double = 0

    /// The reading's confidence: its least sure character, or the line as a whole where that is lower (0 for
    /// no characters). Computed without allocating: it is asked for every line and every view of a frame.
    public var confidence: Double {
        characters.isEmpty ? 0 : characters.reduce(lineConfidence) { min($0, $1.confidence) }
    }

    public init(characters: [RecognizedCharacter], contrast: Int, hasGap: Bool, noise: Double = 0) {
        self.characters = characters
        self.contrast = contrast
        self.hasGap = hasGap
        self.noise = noise
    }

    public static let empty = LineTranscript(characters: [], contrast: 0, hasGap: false)
}
