extension RuleCharacterRecognizer.Configuration {
    /// Separating ink from background in the line, and measuring how dark the lit strokes and the background are.
    public struct Ink: Sendable {
        /// The separator's stroke radius is the digit height divided by this (whole pixels, rounded down)...
        /// First version.
        public var strokeRadiusDivisor = 5
        /// ...and at least this many pixels. First version.
        public var minimumStrokeRadius = 3

        /// Horizontal runs of ink longer than this (digit heights) are bezel edges or printed lines touching the
        /// digits, and are removed. First version.
        public var longestFlatRun = 0.95
        /// Connected pieces of ink smaller than this (pixels) are ignored. First version.
        public var minimumComponentArea = 2

        /// The line's lit level (how dark its lit strokes are) is this percentile (0...1) of the darkness of the
        /// ink pixels in its digit band. The median since the first version; a parameter since 9f63fb2.
        public var lineLitPercentile = 0.5
        /// A cell is judged against this percentile (0...1) of the darkness of its own ink pixels, where they
        /// are fainter than the line's (glare washes out part of a display)... 9f63fb2 ("judge segments per
        /// cell", to read washed-out digits); also used when re-reading on the pitch (e651f51).
        public var cellLitPercentile = 0.75
        /// ...but never against less than this ratio to the line's lit level: a cell of nothing but ghost
        /// segments must not read as an 8. 9f63fb2, as `cellLitPercentile`.
        public var cellLitFloor = 0.65

        /// The level of the display's background in a region is this percentile (0...1) of the separator's
        /// background estimate there: beside a thin bar that may be the window frame (9f63fb2), and in the
        /// number and the cell after it (15c0eab).
        public var backgroundPercentile = 0.5

        public init() {}
    }
}
