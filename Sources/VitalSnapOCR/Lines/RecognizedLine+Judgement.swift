extension RecognizedLine {
    /// How every stage after the recognizer judges a read line: which characters are clear, whether the line is
    /// a number at all, whether it is texture. One definition, shared by the line selection, the assembler and
    /// the rule-based turn search. The values were set by hand when the rule-based reader was written, on the
    /// sample stills and the real photo folders, and kept for the trained reader, whose confidences share the
    /// 0...1 scale.
    public struct JudgementConfiguration: Sendable {
        /// A character at least this sure (0...1) is clearly read (`clearCharacterCount`); a line's quality
        /// counts such characters for, and the others against, it.
        public var clearCharacterConfidence = 0.5
        /// Ink that is no character over more than this share (0...1) of the band makes the line texture (wood
        /// grain, fabric, printed text) or a reading with the wrong polarity, not a display's digits.
        public var textureNoise = 0.08
        /// A character at least this sure (0...1) counts as clearly read for `isNumberLike`: each character's own
        /// confidence; a trained recognizer's doubt about the whole line is in `confidence` and does not make its
        /// clear digits less of a number.
        public var numberCharacterConfidence = 0.3
        /// The share (0...1) of a line's characters (dots aside) that must be clearly read for it to be a number.
        public var numberCharacterShare = 0.6
        public init() {}
    }

    /// The judgement every stage uses.
    public static let judgement = JudgementConfiguration()

    /// Characters (not dots) read clearly, and those unreadable or doubtful.
    public var clearCharacterCount: Int {
        characters.lazy.filter {
            $0.character != "." && $0.character != "?" && $0.confidence >= Self.judgement.clearCharacterConfidence
        }.count
    }
    public var unclearCharacterCount: Int {
        characters.lazy.filter {
            $0.character != "." && ($0.character == "?" || $0.confidence < Self.judgement.clearCharacterConfidence)
        }.count
    }

    /// Ink that is no character over more than `JudgementConfiguration.textureNoise` of the band.
    public var isTexture: Bool { noise > Self.judgement.textureNoise }

    /// Two or more clearly read characters, most of them digits or the letters of a display word: a line of a
    /// seven-segment display rather than a logo, a frame or texture.
    public var isNumberLike: Bool {
        // Lines on textured backgrounds (wood, fabric, printed text) are not a display's.
        guard !isTexture else { return false }
        // Counted without copying them out: asked of every line, several times a frame.
        var count = 0, clear = 0, dashes = 0
        for c in characters where c.character != "." {
            count += 1
            // Characters read differently in another view are shaped as digits all the same: the line is a
            // number whose reading is in doubt, and as such it is still the value (reported unclear), not
            // skipped for the next line down.
            if c.character != "?" && (c.confidence >= Self.judgement.numberCharacterConfidence || viewsDisagree) { clear += 1 }
            if c.character == "-" { dashes += 1 }
        }
        guard count >= 2 else { return false }
        guard Double(clear) >= Self.judgement.numberCharacterShare * Double(count) else { return false }
        return dashes < count || Self.dashesAreEvenlySpaced(characters.filter { $0.character != "." })
    }

    /// A display's dashes (`---` while measuring) stand a digit's pitch apart; bars of a textured background
    /// or a printed rule read as minus signs too, but scattered. Dashes carry no digit height, so a scattered
    /// row of them would otherwise outrank the real number.
    static func dashesAreEvenlySpaced(_ dashes: [RecognizedCharacter]) -> Bool {
        let boxes = dashes.map(\.box).sorted { $0.minX < $1.minX }
        let width = Double(boxes.map(\.width).reduce(0, +)) / Double(boxes.count)
        return zip(boxes, boxes.dropFirst()).allSatisfy { a, b in Double(b.minX - a.maxX) <= width }
    }
}
