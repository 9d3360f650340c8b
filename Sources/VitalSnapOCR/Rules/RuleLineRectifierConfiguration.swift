extension RuleLineRectifier {
    /// The output's geometry, and how a line's angle, band and slant are searched for. Unless a field says
    /// otherwise, its value was hand-tuned on the sample stills and real photos when the rule-based reader was
    /// written (b291d7c, then Recognition/LineRectifier.swift), and the history records no measurement of it.
    public struct Configuration: Sendable {
        // MARK: Output

        /// Digit height of the output, in pixels: the scale the rule-based recognizer reads at.
        public var digitHeight = 32
        /// Rows above and below the digits in the output, in pixels.
        public var margin = 10
        /// How far beyond the outer candidates to look, in digit heights, on each side: a leading `1` or minus, a
        /// trailing decimal digit may not have been candidates.
        public var reachBeyondCandidates = 1.5

        // MARK: Refining the line on a probe band

        /// The probe band, three digit heights tall, spans the candidates plus this many digit heights in all
        /// (not the whole reach, which may hold a bezel or a unit label).
        public var probeExtension = 0.3
        /// Rotations tried around the fitted angle reach this far either way, in radians...
        public var maximumAngleCorrection = 0.16
        /// ...in steps of this, in radians.
        public var angleCorrectionStep = 0.02
        /// A rotation replaces the best one so far only when its score (the sum of squared row counts of ink) is
        /// more than the best score divided by this (integer division) higher: 1/50, 2%. No rotation at all wins
        /// a tie.
        public var angleImprovementDivisor = 50
        /// A row belongs to the digits' band when it holds at least the peak row's ink divided by this (integer
        /// division), and at least one ink pixel...
        public var bandRowDivisor = 12
        /// ...allowing up to this many rows in a row below that, the thin gaps between a digit's segments.
        public var maximumBandGapRows = 2
        /// The band found is trusted as the digit height only from this share of the detected height (the
        /// output's `digitHeight`) where the line was found from character candidates...
        public var minimumBandHeight = 0.8
        /// ...and from this share where it came from a row profile (`TextLine.candidatesAreCharacters` false),
        /// whose band may have taken in a logo or label just above or below and may shrink further. Since
        /// 15c0eab, with no measurement recorded.
        public var minimumProfileBandHeight = 0.55
        /// ...up to this share: more often means a logo or the next line touches it.
        public var maximumBandHeight = 1.3

        // MARK: Ink

        /// Strokes up to about twice this wide are closed away when the ink is separated from its background:
        /// the output's digit height divided by this (integer division), in pixels...
        public var strokeRadiusDivisor = 5
        /// ...and at least this many pixels.
        public var minimumStrokeRadius = 3
        /// How ink is told from its background in the probe and the output.
        public var inkSeparation = InkSeparator.Configuration()

        // MARK: Slant

        /// Slants tried when straightening italic digits (horizontal shift per unit of height), from this...
        public var minimumShear = -0.1
        /// ...through this...
        public var maximumShear = 0.4
        /// ...in steps of this.
        public var shearStep = 0.025
        /// Only the vertical strokes tell the slant: ink in horizontal runs longer than the output's digit height
        /// divided by this (integer division), in pixels, is a bar (a, g, d) and is left out. Since 8b30253.
        public var longestStrokeRunDivisor = 4
        /// ...and that length is at least this many pixels.
        public var minimumLongestStrokeRun = 3
        /// A slant replaces the best one so far only when its score (the sum of squared column counts of ink) is
        /// more than the best score divided by this (integer division) higher: 1/100, 1%. No slant at all wins a
        /// tie.
        public var shearImprovementDivisor = 100

        public init() {}

        /// The slants tried, `minimumShear` through `maximumShear` by `shearStep` (a sequence: walked, never stored,
        /// so a line costs no allocation for it).
        public var shears: StrideThrough<Double> { stride(from: minimumShear, through: maximumShear, by: shearStep) }
        /// The rotations tried around the fitted angle, in radians.
        public var angleSteps: StrideThrough<Double> {
            stride(from: -maximumAngleCorrection, through: maximumAngleCorrection, by: angleCorrectionStep)
        }
    }
}
