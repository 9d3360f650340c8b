extension RuleCharacterRecognizer.Configuration {
    /// Decimal points: a dot about a stroke wide on the baseline between two digits, standing free or touching
    /// the foot of a digit beside it.
    public struct Points: Sendable {
        // MARK: Dots, set aside before the cells are grouped

        /// A dot is at most this tall (digit heights)... First version.
        public var maximumHeight = 0.3
        /// ...at most this wide (digit heights)... First version.
        public var maximumWidth = 0.32
        /// ...at least this wide (digit heights)... First version.
        public var minimumWidth = 0.06
        /// ...squarish: its width at least this ratio to its height... First version.
        public var minimumAspect = 0.4
        /// ...and at most this ratio. First version.
        public var maximumAspect = 2.5
        /// Its foot at most this far (digit heights) above the digits' baseline... First version.
        public var baselineAbove = 0.22
        /// ...and at most this far below it. First version.
        public var baselineBelow = 0.2
        /// Its ink fills at least this share (0...1) of its box. First version.
        public var minimumFill = 0.5
        /// A dot's darkness is this percentile (0...1) of the darkness of its ink pixels... a93d751 ("decimal
        /// points ... must be as dark as ink").
        public var darknessPercentile = 0.5
        /// ...and must reach this ratio to the line's lit level: specks of noise on the baseline are fainter.
        /// a93d751.
        public var minimumDarkness = 0.6

        // MARK: A point standing free between two digits

        /// Its longer side is at least this many tenths of a stroke... 16c0ab1 (specks of binarized noise made
        /// 142 read 1.42: bp-fields-binarized 73 -> 77 correct, 15 -> 11 wrong; fuel-pump 103 -> 107 correct but
        /// 20 -> 21 wrong, a blurred fused point of 135.0 now missed; Samples 84 -> 85).
        public var minimumSideTenths = 7
        /// ...and at least this many pixels. a93d751 (with 4 tenths then; "as small as the samples draw them").
        public var minimumSide = 2
        /// Its ink covers at least the square of a stroke divided by this (pixels)... 16c0ab1.
        public var minimumAreaDivisor = 5
        /// ...and at least this many pixels. 16c0ab1.
        public var minimumArea = 3
        /// It overlaps no character's columns by more than this share (0...1) of its width. First version.
        public var maximumCharacterOverlap = 0.5

        // MARK: Free or fused to a digit's foot

        /// A point is at most this many tenths of a stroke wide (standing free, its longer side). 2.2 strokes since
        /// the first version, in whole tenths since 9f63fb2 (which brought in fused points).
        public var maximumWidthTenths = 22

        // MARK: A point fused to a digit's foot

        /// It is at least this many tenths of a stroke wide: the foot of a stroke still slanted a little sticks
        /// out only a pixel or two. 6 in 9f63fb2, 8 since 8b30253.
        public var fusedMinimumWidthTenths = 8
        /// Its ink fills at least this share (0...1) of its box: scattered specks of noise on the baseline leave
        /// most of it empty. 16c0ab1.
        public var fusedMinimumFill = 0.4

        public init() {}
    }
}
