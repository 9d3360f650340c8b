import VitalSnapImaging

extension LineTranscript {
    /// How both recognizers measure a line's contrast (`contrast`): the grey-level spread in its digit band
    /// between two percentiles of its levels, so that a few specks of noise or saturated pixels do not count.
    public struct ContrastConfiguration: Sendable {
        /// The upper percentile (0...1): the background of dark ink, the ink of light ink.
        public var upperPercentile = 0.9
        /// The lower percentile (0...1).
        public var lowerPercentile = 0.03
        public init() {}
    }

    /// The measure both recognizers use.
    public static let contrastMeasure = ContrastConfiguration()

    /// The contrast of a band whose grey levels are counted in `histogram`.
    public static func contrast(of histogram: Histogram) -> Int {
        histogram.percentile(contrastMeasure.upperPercentile) - histogram.percentile(contrastMeasure.lowerPercentile)
    }
}
