extension RuleCharacterRecognizer.Configuration {
    /// Grouping the line's ink into character cells: which pieces count, which join, where the window frame is
    /// cut off and a touching `1` split off, and the line's typical character width and stroke width.
    public struct Cells: Sendable {
        // MARK: Pieces of ink

        /// A piece of ink counts when it reaches into the digit band by more than the digit height divided by
        /// this (whole pixels, rounded down) at the top and at the bottom: where lines are packed, the foot of
        /// the line above reaches into the band's edge. First version.
        public var bandReachDivisor = 10
        /// Pieces at least this tall (digit heights) are frames or shadows, not characters. First version.
        public var maximumHeight = 1.35
        /// A flat bar wider than this (digit heights)... First version.
        public var barMinimumWidth = 1.0
        /// ...and lower than this (digit heights) would join the digits it passes over into one cell: left out.
        /// First version.
        public var barMaximumHeight = 0.5

        // MARK: Joining pieces into cells

        /// Pieces sharing at least this share (0...1) of the narrower one's columns are parts of one character.
        /// First version (as half the narrower one's columns); the rules around it since 8b30253.
        public var sharedColumns = 0.5
        /// Pieces one above the other join only when at most this far apart (digit heights): a label above the
        /// digits and an icon below them are too far. 634afbc.
        public var maximumVerticalGap = 0.2
        /// Stacked pieces with meeting columns join when their rows overlap by at most this share (0...1) of the
        /// shorter one's height: a `1` beside a digit stands level with it, not above it. 8b30253 ("join LCD
        /// segments whose columns only touch").
        public var stackedRowOverlap = 0.5
        /// A short bar meeting a stroke at its corner (the top bar of an LED 7) joins it when at most this ratio
        /// of the stroke's height... 634afbc (97 had been read as 91).
        public var cornerBarHeight = 0.25
        /// ...and at most this wide (digit heights). 634afbc.
        public var cornerBarWidth = 0.5

        // MARK: The rows a character may span

        /// A character may reach this far (digit heights) above the digits' top...; a cell reaching further is a
        /// bezel edge or a shadow, or has the window frame joined to it. First version (in the classification);
        /// also where the frame is cut off since 1eb5d5b.
        public var rowsAbove = 0.2
        /// ...and down to this far (digit heights) below the digits' top. First version, as `rowsAbove`.
        public var rowsBelow = 1.2
        /// Ink running on from a cell's top or bottom for this far (digit heights; at least 3 pixels) makes the
        /// cell a piece of a longer line, such as the window frame. First version.
        public var runOnLength = 0.3

        // MARK: Cutting the window frame off a digit

        /// Only cells at least this wide (digit heights) may be a digit with the frame joined to it. 1eb5d5b.
        public var frameCutMinimumWidth = 0.4
        /// A column is the frame where its ink runs unbroken across the band's bottom edge, from this far below
        /// the digits' top (digit heights)... 1eb5d5b.
        public var frameCrossingFromBelow = 0.9
        /// ...to this far below it (digit heights)... 1eb5d5b.
        public var frameCrossingToBelow = 1.15
        /// ...or across the top edge, from this far below the digits' top (digit heights)... 1eb5d5b.
        public var frameCrossingFromAbove = 0.1
        /// ...to this far above it (digit heights). 1eb5d5b.
        public var frameCrossingToAbove = 0.15
        /// The frame's columns are a thin run at one side: at most this share (0...1) of the cell's width.
        /// 1eb5d5b.
        public var frameMaximumShare = 0.35

        // MARK: Splitting off a touching `1`

        /// Only cells at least this wide (digit heights) may be a `1` and a digit run together. 9f63fb2 ("a 1
        /// touching its neighbour is split off").
        public var splitMinimumWidth = 0.5
        /// They may touch through a column of at most this much ink (digit heights; at least 2 pixels). 9f63fb2.
        public var bridgeMaximum = 0.12
        /// ...lying within this share (0...1) of the cell's height from its top or bottom (the middle is the bar of
        /// an `H`). 9f63fb2.
        public var bridgeEdgeShare = 0.25
        /// The `1` is at most this wide (digit heights)... 9f63fb2.
        public var splitOneMaximumWidth = 0.35
        /// ...with a stroke at least this tall (digit heights)... 9f63fb2.
        public var splitOneMinimumStroke = 0.55
        /// ...and the other side at least this wide (digit heights). 9f63fb2.
        public var splitOtherMinimumWidth = 0.3

        // MARK: The line's typical character and stroke

        /// A cell at least this tall (digit heights) is a whole character, not a piece of one, a dot or a bar:
        /// such cells give the typical width and the stroke width (first version), and a cell to split and both
        /// its parts must be this tall (9f63fb2).
        public var fullHeight = 0.6
        /// Full-height cells at least this wide (digit heights) are full characters (not a `1`): their median
        /// width is the typical width. First version.
        public var fullCharacterMinimumWidth = 0.4
        /// The typical width where no cell is a full character (digit heights). First version.
        public var typicalWidthFallback = 0.55
        /// The stroke width where no run of ink was measured: the digit height divided by this (at least 2
        /// pixels). First version.
        public var strokeFallbackDivisor = 7
        /// The stroke width measured is at least the digit height divided by this (and 2 pixels)... First
        /// version.
        public var strokeMinimumDivisor = 14
        /// ...and at most the digit height divided by this. First version.
        public var strokeMaximumDivisor = 3

        public init() {}
    }
}
