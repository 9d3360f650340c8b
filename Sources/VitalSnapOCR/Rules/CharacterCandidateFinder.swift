import Foundation
import VitalSnapImaging

/// Finds blobs shaped like seven-segment characters at one pyramid level: local-contrast binarization in both
/// polarities, a closing that joins a digit's segments, connected components, and a shape filter.
public struct CharacterCandidateFinder: Sendable {
    /// Unless a field says otherwise, its value was hand-tuned on the sample stills and real photos when the
    /// rule-based reader was written (b291d7c, then Detection/CharacterCandidateFinder.swift), and the history
    /// records no measurement of it.
    public struct Configuration: Sendable {
        /// Candidate heights at this level, in pixels (the pyramid's levels cover larger digits).
        public var minimumHeight = 12
        public var maximumHeight = 80
        /// The local-contrast binarization, both polarities at once.
        public var threshold = AdaptiveThreshold(radius: 14, k: 0.25, minimumContrast: 10)
        /// The closing that joins a digit's segments before labelling (radius 0: none; the grouper joins them).
        public var closing = Closing(radius: 0)
        /// Components of fewer ink pixels than this at this level are specks, not segments, and are dropped
        /// before grouping...
        public var minimumPieceArea = 4
        /// ...as are those of fewer than `minimumHeight` divided by this (integer division): the larger of the two
        /// bounds counts.
        public var pieceAreaHeightDivisor = 3
        /// How the separate segments of one digit are joined into one blob.
        public var grouping = SegmentGrouper.Configuration()
        /// Narrowest candidate, width over height: a `1` can be a thin bar.
        public var minimumAspect = 0.08
        /// Widest candidate, width over height: a digit is taller than wide, and two touching digits (about 1.4)
        /// still pass.
        public var maximumAspect = 1.5
        /// A candidate narrower than this (width over height) is a thin bar, which may be solid...
        public var barAspect = 0.3
        /// ...up to this share of its box filled with ink (0...1; 1: a bar may be solid)...
        public var maximumBarFill = 1.0
        /// ...while any other candidate may fill at most this share of its box (0...1): solid blocks are not
        /// segment shapes.
        public var maximumFill = 0.85
        /// Least share of its box (0...1) a candidate's ink must fill, of any shape.
        public var minimumFill = 0.12
        public init() {}
    }

    public var configuration: Configuration
    private var integral = IntegralImage()
    private var dark = InkMask(width: 0, height: 0)
    private var light = InkMask(width: 0, height: 0)
    private var scratch = InkMask(width: 0, height: 0)
    private var columnRuns: [UInt16] = []
    private var labeler = ConnectedComponents()

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Candidates in this level's coordinates, multiplied by `scale` to give full-image coordinates.
    public mutating func find(in image: GrayImage, level: Int, scale: Int, into out: inout [CharacterCandidate]) {
        integral.update(from: image)
        configuration.threshold.apply(image, integral: integral, dark: &dark, light: &light)
        // Moved out of self while they are processed, which keeps the mutating calls exclusive.
        var mask = InkMask(width: 0, height: 0)
        swap(&mask, &dark)
        collect(from: &mask, polarity: .dark, level: level, scale: scale, into: &out)
        swap(&mask, &dark)
        swap(&mask, &light)
        collect(from: &mask, polarity: .light, level: level, scale: scale, into: &out)
        swap(&mask, &light)
    }

    private mutating func collect(
        from mask: inout InkMask, polarity: InkPolarity, level: Int, scale: Int, into out: inout [CharacterCandidate]
    ) {
        configuration.closing.apply(&mask, scratch: &scratch)
        LongRunRemoval(
            maximumHorizontal: configuration.maximumHeight, maximumVertical: configuration.maximumHeight * 5 / 4
        ).apply(&mask, scratch: &scratch, columnRuns: &columnRuns)
        let c = configuration
        let minimumArea = max(c.minimumPieceArea, c.minimumHeight / c.pieceAreaHeightDivisor)
        let pieces = labeler.label(mask, minimumArea: minimumArea)
        let grouper = SegmentGrouper(configuration: c.grouping)
        for component in grouper.group(pieces, maximumHeight: c.maximumHeight) {
            let b = component.box
            guard b.height >= c.minimumHeight, b.height <= c.maximumHeight else { continue }
            let aspect = Double(b.width) / Double(b.height)
            // A digit is taller than wide; a `1` can be a thin bar. Two touching digits reach about 1.4.
            guard aspect >= c.minimumAspect, aspect <= c.maximumAspect else { continue }
            // Solid blocks are not segment shapes, except the thin bar of a `1`.
            let maximumFill = aspect < c.barAspect ? c.maximumBarFill : c.maximumFill
            guard component.fill <= maximumFill, component.fill >= c.minimumFill else { continue }
            let full = PixelRect(x: b.x * scale, y: b.y * scale, width: b.width * scale, height: b.height * scale)
            out.append(CharacterCandidate(box: full, fill: component.fill, polarity: polarity, level: level))
        }
    }
}
