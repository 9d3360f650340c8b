import Foundation
import VitalSnapImaging

/// Finds blobs shaped like seven-segment characters at one pyramid level: local-contrast binarization in both
/// polarities, a closing that joins a digit's segments, connected components, and a shape filter.
public struct CharacterCandidateFinder: Sendable {
    public struct Configuration: Sendable {
        /// Candidate heights at this level, in pixels.
        public var minimumHeight = 12
        public var maximumHeight = 80
        public var threshold = AdaptiveThreshold(radius: 14, k: 0.25, minimumContrast: 10)
        public var closing = Closing(radius: 0)
        public init() {}
    }

    public var configuration: Configuration
    private var integral = IntegralImage()
    private var dark = InkMask(width: 0, height: 0)
    private var light = InkMask(width: 0, height: 0)
    private var scratch = InkMask(width: 0, height: 0)
    private var columnRuns: [UInt16] = []
    private var labeler = ConnectedComponents()
    private let grouper = SegmentGrouper()

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
        let pieces = labeler.label(mask, minimumArea: max(4, c.minimumHeight / 3))
        for component in grouper.group(pieces, maximumHeight: c.maximumHeight) {
            let b = component.box
            guard b.height >= c.minimumHeight, b.height <= c.maximumHeight else { continue }
            let aspect = Double(b.width) / Double(b.height)
            // A digit is taller than wide; a `1` can be a thin bar. Two touching digits reach about 1.4.
            guard aspect >= 0.08, aspect <= 1.5 else { continue }
            // Solid blocks are not segment shapes, except the thin bar of a `1`.
            guard component.fill <= (aspect < 0.3 ? 1.0 : 0.85), component.fill >= 0.12 else { continue }
            let full = PixelRect(x: b.x * scale, y: b.y * scale, width: b.width * scale, height: b.height * scale)
            out.append(CharacterCandidate(box: full, fill: component.fill, polarity: polarity, level: level))
        }
    }
}
