import VitalSnapImaging

/// Separates dark ink from its background in a small, upright line image: divides by the local background
/// (the image with strokes closed away) so shadows and gradients do not decide, then one Otsu threshold on the
/// darkness that remains. Faint ghosts of unlit LCD segments stay below the threshold when lit ones are present.
public struct InkSeparator: Sendable {
    public struct Configuration: Sendable {
        /// Darkness relative to the background (0...255, 255 = black on its background) below which nothing
        /// counts as ink, whatever Otsu's threshold says (Otsu splits any histogram, even one of a region with no
        /// ink at all). Hand-tuned on the sample stills and real photos when the rule-based reader was written
        /// (b291d7c, then Recognition/InkSeparator.swift); the history records no measurement of it.
        public var minimumInkContrast = 30
        public init() {}
    }

    public var configuration: Configuration

    public private(set) var darkness = GrayImage(width: 0, height: 0)
    /// The image with its strokes closed away: the display background (and whatever surrounds it).
    public private(set) var background = GrayImage(width: 0, height: 0)
    private var scratch = GrayImage(width: 0, height: 0)
    private var morphology = GrayMorphology.Workspace()

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Fills `mask` and returns the threshold used on `darkness`, or nil when the region is blank.
    /// `strokeRadius`: strokes up to about twice this wide are closed away when estimating the background.
    @discardableResult
    public mutating func separate(_ image: GrayImage, strokeRadius: Int, thresholdRegion: PixelRect, into mask: inout InkMask) -> Int? {
        GrayMorphology.closing(image, radius: strokeRadius, into: &background, scratch: &scratch, workspace: &morphology)
        darkness.reshape(width: image.width, height: image.height)
        image.pixels.withUnsafeBufferPointer { p in
            background.pixels.withUnsafeBufferPointer { b in
                darkness.pixels.withUnsafeMutableBufferPointer { f in
                    for i in 0..<p.count {
                        let bg = max(Int(b[i]), 1)
                        f[i] = UInt8(max(0, bg - Int(p[i])) * 255 / bg)
                    }
                }
            }
        }
        mask.reshape(width: image.width, height: image.height)
        guard let otsu = Histogram(darkness, in: thresholdRegion).otsuThreshold() else {
            for i in 0..<mask.pixels.count { mask.pixels[i] = 0 }
            return nil
        }
        let threshold = max(otsu, configuration.minimumInkContrast)
        darkness.pixels.withUnsafeBufferPointer { p in
            mask.pixels.withUnsafeMutableBufferPointer { m in
                for i in 0..<p.count { m[i] = Int(p[i]) >= threshold ? 1 : 0 }
            }
        }
        return threshold
    }
}
