extension RuleCharacterRecognizer.Configuration {
    /// The frame of the display window where the line runs into it: a thin dark line read as a `1` or as nothing,
    /// with the display's even background on one side and something else on the other.
    public struct WindowFrame: Sendable {
        /// The digits' height is the median height of the readable characters (not `1`s) wider than this (digit
        /// heights). 3ac5fbc.
        public var wideCharacterWidth = 0.3
        /// The background is compared in strips beside the cell, the band's height divided by this wide (at least
        /// 2 pixels). 9f63fb2.
        public var sideStripDivisor = 8
        /// Only cells at most this wide (digit heights) may be the frame: a cell as wide as a digit is never taken
        /// for it, even unreadable. 5b3081b for unreadable cells, 9583958 for `1`s too.
        public var maximumWidth = 0.5
        /// The background levels on the two sides differ by at least this ratio to the brighter one. 9f63fb2;
        /// the rules around it since b149e19.
        public var minimumStep = 0.3
        /// A `1` there thinner than this many strokes is the frame; one as thick as the digits' strokes may be a
        /// real `1` beside it. 9583958 (dropping a real 1 beside the frame turns 201 into 20).
        public var oneMinimumStroke = 0.75
        /// A `1` of the digits' stroke but shorter than this share (0...1) of the digits' height cannot be told
        /// from the frame: it is dropped and the reading is doubtful (a 1 lost in front of 50 would make it 150).
        /// b149e19 (3ac5fbc had 0.85, and dropped it without doubt).
        public var oneMinimumHeight = 0.75

        public init() {}
    }
}
