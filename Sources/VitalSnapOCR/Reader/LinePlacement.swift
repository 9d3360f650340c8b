import VitalSnapImaging

/// Stage: a line's transcript placed back in the image it was read from.
///
/// Input: what the recognizer read (`LineTranscript`, boxes in the rectified crop's pixels), the crop, the
/// located line and the frame. Output: a `RecognizedLine` in the image's pixels, or nil for a line read off the
/// image (where the line's extension was filled with edge pixels, its characters are not on the display).
public struct LinePlacement: Sendable {
    public struct Configuration: Sendable {
        /// The share of a read line's box (0...1) that must lie inside the image for it to be kept: the rest
        /// was read from the edge pixels a crop reaching beyond the image is filled with.
        public var minimumShareInImage = 0.7
        public init() {}
    }

    public var configuration = Configuration()

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public func place(
        _ read: LineTranscript, crop r: RectifiedLine, of line: TextLine, in frame: WorkingFrame
    ) -> RecognizedLine? {
        guard !read.characters.isEmpty else { return nil }
        // Rectified pixel -> working frame -> caller's image.
        let m = r.toFrame, frameToImage = frame.toImage, s = frameToImage.a
        let t = frameToImage.apply(m.tx, m.ty)
        let toImageMap = AffineMap(a: m.a * s, b: m.b * s, c: m.c * s, d: m.d * s, tx: t.x, ty: t.y)
        let toImage: (Double, Double) -> Point = { x, y in
            let p = toImageMap.apply(x, y)
            return Point(x: p.x, y: p.y)
        }
        let x0 = Double(read.characters.lazy.map { $0.box.minX }.min()!)
        let x1 = Double(read.characters.lazy.map { $0.box.maxX }.max()!)
        let y0 = Double(r.digitTop), y1 = Double(r.digitBottom)
        var recognized = RecognizedLine(
            characters: read.characters, confidence: read.confidence, digitHeight: r.frameDigitHeight / frame.scale,
            polarity: r.polarity ?? line.polarity, role: line.role,
            corners: LineQuad(
                topLeft: toImage(x0, y0), topRight: toImage(x1, y0), bottomRight: toImage(x1, y1),
                bottomLeft: toImage(x0, y1)),
            contrast: read.contrast, hasGap: read.hasGap, noise: read.noise)
        recognized.toImage = toImageMap
        recognized.viewsDisagree = read.viewsDisagree
        recognized.leadingOneProbability = read.leadingOneProbability
        recognized.polarityIsSure = r.polarity == nil || r.polarityIsSure
        if !line.candidatesAreCharacters {
            recognized.locatedBox = PixelRect(enclosing: line.quad.map { c in
                let p = frameToImage.apply(c.x, c.y)
                return Point(x: p.x, y: p.y)
            })
        }
        let readBox = recognized.boundingBox
        let inImage = Double(readBox.intersection(frame.imageBounds).area)
        guard inImage >= configuration.minimumShareInImage * Double(max(1, readBox.area)) else { return nil }
        return recognized
    }
}
