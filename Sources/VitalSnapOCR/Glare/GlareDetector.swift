import VitalSnapImaging

/// Finds glare on a display: blobs much brighter than the display's own background, near saturation. A
/// reflection washes segments out, so a digit under glare may read as another digit (an 8 losing a segment
/// becomes a 9 or a 0); the reading must not trust digits it covers.
public struct GlareDetector: Sendable {
    /// Pixels at least this bright can be glare...
    public var minimumLevel = 230
    /// ...and at least this far from the display background towards white (0...1).
    public var minimumLift = 0.55
    /// ...and at least this many gray levels above it.
    public var minimumStep = 25
    /// Blobs smaller than this share of the display are specks, not glare.
    public var minimumShare = 0.004

    private var mask = InkMask(width: 0, height: 0)
    private var labeler = ConnectedComponents()

    public init() {}

    /// `display`: the display region in `image`; `digits`: boxes of the characters being read.
    /// `polarity`: backlit displays have bright digits, which are not glare.
    /// `nearby`: places beside the digits where glare may hide a whole digit (the cell before and after a
    /// number). Only glare lying inside `display` counts there: bright ground reaching the edge of the
    /// region there is the device's body around the window, not a reflection on it.
    public mutating func detect(
        in image: GrayImage, display: PixelRect, digits: [PixelRect], nearby: [PixelRect] = [], polarity: InkPolarity
    ) -> GlareReport {
        let region = display.intersection(image.bounds)
        guard region.area > 0 else { return .none }
        let histogram = Histogram(image, in: region)
        let background = histogram.percentile(polarity == .dark ? 0.6 : 0.3)
        // Glare stands out from the display's own background, by a share of the room left below white and
        // by at least `minimumStep` levels: a display that is simply bright all over is not glare.
        let level = max(minimumLevel, background + max(minimumStep, Int(minimumLift * Double(255 - background))))
        guard level <= 255 else { return .none }
        let crop = image.cropped(to: region)
        mask.reshape(width: crop.width, height: crop.height)
        crop.pixels.withUnsafeBufferPointer { p in
            mask.pixels.withUnsafeMutableBufferPointer { m in
                for i in 0..<p.count { m[i] = Int(p[i]) >= level ? 1 : 0 }
            }
        }
        let minimumArea = max(4, Int(minimumShare * Double(region.area)))
        var regions: [PixelRect] = []
        var inner: [PixelRect] = []
        var area = 0
        let digitHeight = digits.map(\.height).max() ?? 0
        for blob in labeler.label(mask, minimumArea: minimumArea) {
            // On a backlit display the digits themselves are bright: only blobs far larger than a stroke count.
            if polarity == .light && (blob.box.width < digitHeight || blob.box.height < digitHeight) { continue }
            let r = PixelRect(x: blob.box.x + region.x, y: blob.box.y + region.y, width: blob.box.width, height: blob.box.height)
            regions.append(r)
            area += blob.area
            let touchesEdge = blob.box.minX == 0 || blob.box.minY == 0 || blob.box.maxX == crop.width || blob.box.maxY == crop.height
            if !touchesEdge { inner.append(r) }
        }
        // Glare pixels inside a digit's box, not merely a blob's bounding box over it: the bright body around
        // a display is one blob whose box spans the whole window.
        func covered(_ place: PixelRect, by blob: PixelRect) -> Bool {
            let overlap = place.intersection(blob)
            guard !overlap.isEmpty else { return false }
            var count = 0
            for y in overlap.minY..<overlap.maxY {
                for x in overlap.minX..<overlap.maxX where mask[x - region.x, y - region.y] { count += 1 }
            }
            return count >= max(4, place.area / 100)
        }
        let covers = regions.contains { r in digits.contains { covered($0, by: r) } }
            || inner.contains { r in nearby.contains { covered($0, by: r) } }
        return GlareReport(regions: regions, share: Double(area) / Double(region.area), coversDigits: covers)
    }
}
