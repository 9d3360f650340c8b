extension LineFinder {
    /// When candidates chain into a line, when two lines are the halves of one, when two candidates are one digit
    /// found twice. Unless a field says otherwise, its value was hand-tuned on the sample stills and real photos
    /// when the rule-based reader was written (b291d7c, then Detection/LineFinder.swift), and the history records
    /// no measurement of it.
    public struct Configuration: Sendable {
        // MARK: Neighbours

        /// Neighbours' heights differ by at most this factor (taller over shorter). Also bounds the search: no
        /// neighbour lies further right than `maximumGap` times this times a candidate's own height.
        public var maximumHeightRatio = 1.4
        /// Largest horizontal gap between neighbours, in digit heights (a `1` sits at the right of a wide cell).
        public var maximumGap = 1.0
        /// Smallest horizontal gap between neighbours, in digit heights: negative, so their boxes may overlap
        /// by up to 0.35 digit heights.
        public var minimumGap = -0.35
        /// Largest vertical offset between neighbours' centres, in digit heights.
        public var maximumVerticalOffset = 0.22
        /// Fewest candidates in a line: one blob alone is not a number (frames, icons and logos come alone,
        /// numbers have two or more digits).
        public var minimumCandidates = 2
        /// A line's angle, fitted through its candidates' centres, is clamped to this either way, in radians:
        /// the locator finds roughly level lines, and the rectifier refines the angle on the pixels.
        public var maximumAngle = 0.3

        // MARK: The same digit twice

        /// A candidate covering more than this share (0...1) of the smaller box of one already kept (same
        /// polarity, finer pyramid levels first)...
        public var duplicateOverlap = 0.6
        /// ...and less than this factor taller or shorter (taller over shorter) is the same digit found at another
        /// pyramid level, and is dropped.
        public var duplicateHeightRatio = 1.4

        // MARK: Stacked halves (since 9f63fb2)

        /// Candidates narrower than this (width over height) are thin bars (a `1`, or half of one), left out when
        /// judging whether a line is of half digits; a line of nothing but thin bars may be.
        public var halfDigitBarAspect = 0.35
        /// A line is of half digits when the median width over height of its other candidates is at least this:
        /// half a digit is about as wide as it is tall, a whole one is not.
        public var halfDigitMinimumAspect = 0.7
        /// Two lines of half digits are joined only when their digit heights differ by at most this factor
        /// (taller over shorter)...
        public var halvesMaximumHeightRatio = 1.5
        /// ...the gap from the upper one's bottom to the lower one's top is at most this many of their mean digit
        /// heights...
        public var halvesMaximumGap = 0.6
        /// ...and at least this many (negative: they may overlap by up to 0.25)...
        public var halvesMinimumGap = -0.25
        /// ...and they overlap horizontally by at least this share (0...1) of the narrower one's width.
        public var halvesMinimumOverlap = 0.6

        public init() {}
    }
}
