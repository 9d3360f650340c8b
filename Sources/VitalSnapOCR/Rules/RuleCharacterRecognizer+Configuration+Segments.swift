extension RuleCharacterRecognizer.Configuration {
    /// Deciding a cell's character: its shape (whole character, thin `1`, minus, lower-case letter, something
    /// else) and which of its seven segments are lit, judged by darkness against the cell's lit level.
    public struct Segments: Sendable {
        // MARK: Lit or not

        /// A segment is lit when its darkness reaches this ratio to the cell's lit level (at most; a cell with a
        /// clear gap between its lit and unlit segments splits lower)... First version.
        public var onRatio = 0.5
        /// ...and the decision is clear (confidence 1) this far (a ratio to the lit level) from the level a
        /// cell's segments split at. 0.3 in the first version, 0.2 since 9f63fb2.
        public var clearMargin = 0.2
        /// A cell's segments split at the widest gap between their sorted darknesses when that gap is at least
        /// this (a ratio to the lit level); with no such gap (an 8, all lit) they split at `onRatio`. 9f63fb2
        /// ("reads washed-out digits and keeps ghost segments off").
        public var minimumSplitGap = 0.15
        /// ...and never lower than this (a ratio to the lit level). 9f63fb2 ("kept within 0.3-0.5 of the lit
        /// level").
        public var lowestSplit = 0.3
        /// A segment's darkness is the level reached by all but this many tenths of the steps along it (each
        /// step the darkest pixel across it; 4: the level 60% of the steps reach). First version.
        public var darknessRankTenths = 4
        /// Horizontal segments are probed between this many tenths of the cell's width from either side (3: the
        /// middle 40%; in a narrow cell the ends of the vertical strokes would otherwise pass for a bar). 15c0eab
        /// ("horizontal probes use the middle of the cell").
        public var probeInsetTenths = 3
        /// Ink covering more than this share (0...1) of the empty counters between a cell's segments makes it
        /// no display character (printed letters, textures, shadows, icons). 9f63fb2.
        public var counterInkShare = 0.25

        // MARK: Shapes

        /// A cell at least this tall (digit heights) is read as a whole character; below it, it may be a minus
        /// or a lower-case letter. First version.
        public var characterHeight = 0.62
        /// A whole-height cell narrower than this (digit heights) is tested for running on past the band (a frame
        /// or bezel edge); a wide digit may sit right against the frame. 15c0eab.
        public var runOnTestMaximumWidth = 0.45
        /// A cell narrower than this ratio to the typical width... First version.
        public var narrowShareOfTypical = 0.42
        /// ...or at most this many strokes wide... First version.
        public var narrowStrokes = 1.6
        /// ...or narrower than this (digit heights) is a thin bar, a `1` or nothing. 0.3 in the first version,
        /// 0.2 since 5b3081b ("tall narrow fonts are read").
        public var narrowWidth = 0.2
        /// A cell wider than this (digit heights) is no seven-segment character (the gaps around a digit seen
        /// with the wrong polarity, a logo, two characters run together). e651f51.
        public var maximumWidth = 0.9

        /// A minus is a bar at most this tall (digit heights)... First version.
        public var minusMaximumHeight = 0.3
        /// ...at least this wide (digit heights)... First version.
        public var minusMinimumWidth = 0.25
        /// ...with its middle at most this far (digit heights) from the middle of the digits. First version.
        public var minusMaximumOffset = 0.18

        /// A lower-case letter (`r`, `o`) fills the lower half only: at least this tall (digit heights)...
        /// First version.
        public var lowerCaseMinimumHeight = 0.35
        /// ...with its top at most this far (digit heights) above the middle of the digits... First version.
        public var lowerCaseHighestTop = 0.15
        /// ...and at least this wide (digit heights). First version.
        public var lowerCaseMinimumWidth = 0.3

        // MARK: A `1`

        /// A `1` is a bar with ink in at least this share (0...1) of its cell's rows... a93d751 ("a 1 must be a
        /// bar of even width").
        public var oneInkRows = 0.75
        /// ...at most this many strokes (at least 2 pixels each) wide in any row: a stack of small icons is not.
        /// a93d751.
        public var oneMaximumWidth = 2.2
        /// ...without a bar sticking out to the left in the top rows, the cell's height divided by this (at
        /// least 2): that is a 7 whose top bar is short or came apart. 634afbc (97 had been read as 91).
        public var sevenFlagRowsDivisor = 6
        /// ...looked for this many strokes (at least 2 pixels each) to the left of the cell too. 634afbc.
        public var sevenFlagReachStrokes = 2

        public init() {}
    }
}
