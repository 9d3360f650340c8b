import VitalSnapImaging

/// Cuts a located line out of the frame exactly as the recognizer's training crops were cut (`LineCropper`):
/// 32 rows, the characters on rows 6 to 26, along the line's own reading direction, so a line of a turned
/// photo comes out upright. Nothing is inverted: the network reads both polarities; the polarity is estimated
/// from the crop for the stages after it (glare).
public struct ModelLineRectifier: LineRectifying {
    private var cropper = LineCropper()
    /// The digit band's grey levels, kept between lines so that telling a crop's polarity allocates nothing.
    private var histogram = Histogram()

    public init() {}

    public mutating func rectify(_ line: TextLine, pyramid: ImagePyramid, into out: inout RectifiedLine) {
        guard let working = pyramid.levels.first else { return }
        let map = cropper.crop(working, quad: line.quad, into: &out.image)
        out.digitTop = LineCropper.digitTop
        out.digitHeight = LineCropper.digitHeight
        out.shear = 0
        // `map` takes continuous crop coordinates to continuous frame coordinates; `toFrame` takes pixel
        // centres at integers to pixel centres at integers: shift by half a pixel on both sides.
        out.toFrame = map.betweenPixelCentres
        out.frameBounds = working.bounds
        out.candidateSpans = []
        // The rows above and below the characters show the display where they lie inside the frame (a crop of
        // one line, cut at its edges, has none: they repeat its edge rows).
        let middle = Double(out.image.width) / 2
        func inFrame(row y: Double) -> Bool {
            let p = map.apply(middle, y)
            return working.bounds.contains(x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down)))
        }
        let marginsInFrame = inFrame(row: 1) && inFrame(row: Double(LineCropper.height) - 1)
        let band = LineCropper.digitTop..<LineCropper.digitBottom
        let inBand = Self.inkPolarity(of: out.image, rows: band, histogram: &histogram)
        guard marginsInFrame else {
            out.polarity = inBand
            out.polarityIsSure = false
            return
        }
        // Against the margins where there are some; it stands as sure only where the band alone says the same
        // (a margin reaching the dark bezel above a light window made its dark digits look light).
        out.polarity = Self.inkPolarity(of: out.image, againstMarginsOf: band)
        out.polarityIsSure = out.polarity == inBand
    }

    /// The rows above and below the characters are the display itself; the characters' band holds more ink
    /// than they do. Where the band is darker on average the ink is dark, otherwise light (thick segments can
    /// cover more than half the band, so the band alone does not tell).
    static func inkPolarity(of image: GrayImage, againstMarginsOf rows: Range<Int>) -> InkPolarity {
        var band = 0, bandCount = 0, margin = 0, marginCount = 0
        for y in 0..<image.height {
            var sum = 0
            for x in 0..<image.width { sum += Int(image[x, y]) }
            if rows.contains(y) {
                band += sum
                bandCount += image.width
            } else {
                margin += sum
                marginCount += image.width
            }
        }
        guard bandCount > 0, marginCount > 0 else { return .dark }
        return Double(band) / Double(bandCount) < Double(margin) / Double(marginCount) ? .dark : .light
    }

    /// Segments cover a minority of the digit band: where the band's mean is below its median, the minority is
    /// dark (dark ink on a light display), otherwise light. `histogram` is scratch space the caller keeps.
    static func inkPolarity(of image: GrayImage, rows: Range<Int>, histogram: inout Histogram) -> InkPolarity {
        let top = max(0, rows.lowerBound), bottom = min(rows.upperBound, image.height)
        guard bottom > top else { return .dark }
        histogram.update(image, in: PixelRect(x: 0, y: top, width: image.width, height: bottom - top))
        let count = histogram.total
        guard count > 0 else { return .dark }
        var sum = 0, seen = 0, median = -1
        for level in 0..<256 {
            let n = histogram.counts[level]
            sum += level * n
            seen += n
            if median < 0 && 2 * seen >= count { median = level }
        }
        return Double(sum) / Double(count) < Double(median) ? .dark : .light
    }
}
