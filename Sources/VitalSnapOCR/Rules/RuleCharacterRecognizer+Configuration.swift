extension RuleCharacterRecognizer {
    /// Every threshold of the rule-based recognizer, grouped by the step that uses it.
    ///
    /// Units, as each field says: *digit heights* (multiples of the line's digit height, `RectifiedLine.digitHeight`),
    /// *typical widths* (of the line's full characters), *pitches* (the distance between the right edges of
    /// neighbouring characters), *strokes* (the line's stroke width in pixels), *pixels*, a *share* 0...1 of
    /// something counted, a *percentile* 0...1, or a *ratio to a lit level* (a darkness divided by how dark the
    /// lit strokes are). Integer fields keep the integer arithmetic they replaced: `H / bandReachDivisor` is a
    /// whole number of pixels, rounded down.
    ///
    /// How each value was chosen is told beside it, from the commit that brought it in (the file was
    /// `Recognition/LineRecognizer.swift` until 30ad88a; `git log -S` on either path finds them). *First
    /// version* means the value came with the first version of the pipeline (b291d7c), whose message calls it
    /// "the base the tuning works from": hand-tuned on the sample stills and the real photos when the rule-based
    /// reader was written, with no measurement recorded. Where a later commit gives no figures either, it is
    /// named and the value was hand-tuned the same way.
    public struct Configuration: Sendable {
        /// A value is only read from a line whose every character is at least this clear (a character
        /// confidence, 0...1). Used by the reading assembler (`ReadingAssembler`'s default, the rule-based
        /// reader's stages), not by the recognizer itself. First version (there as the assembler's
        /// `minimumConfidence`; moved here in 2112e97).
        public var minimumReadingConfidence = 0.35

        /// Separating ink and measuring how dark it is.
        public var ink = Ink()
        /// Grouping ink into character cells.
        public var cells = Cells()
        /// Deciding a cell's character from its segments.
        public var segments = Segments()
        /// The cells of a display's pitch: re-reading on it and checking the number keeps it.
        public var pitch = Pitch()
        /// Ink in the cell just before or after the number.
        public var nextCell = NextCell()
        /// Which characters belong to the number.
        public var number = Number()
        /// The frame of the display window beside the number.
        public var windowFrame = WindowFrame()
        /// Decimal points.
        public var points = Points()

        public init() {}
    }
}
