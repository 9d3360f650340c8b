import VitalSnapImaging

/// Finds text lines in an image that is mostly display (a crop, or the overlay window of guided capture) from
/// its row profile: the rows where ink is, between rows where there is none, the way ssocr does. It needs no
/// whole-digit blobs, so it still works where segments are far apart or digits touch the bezel.
public struct ProfileLineFinder: Sendable {
    /// Unless a field says otherwise, its value was hand-tuned on the sample stills and real photos when the
    /// rule-based reader was written (b291d7c, then Detection/ProfileLineFinder.swift), and the history records
    /// no measurement of it.
    public struct Configuration: Sendable {
        /// Share of the width (0...1) ignored at each side: bezel edges run the full height there.
        public var sideMargin = 0.06
        /// Images narrower than this, in pixels, give no lines.
        public var minimumWidth = 16
        /// Lowest band, in pixels; images less tall give no lines.
        public var minimumHeight = 12
        /// Lowest band, as the image height divided by this (integer division): a band must also be at least
        /// about a tenth of the display crop's height.
        public var imageHeightDivisor = 10
        /// The local-contrast binarization's window radius is the image's shorter side divided by this (integer
        /// division), in pixels...
        public var thresholdRadiusDivisor = 6
        /// ...and at least this many pixels.
        public var minimumThresholdRadius = 6
        /// The binarization's `k`: ink differs from its window's mean by more than this many standard deviations
        /// of the window...
        public var thresholdK = 0.25
        /// ...and by more than this many gray levels.
        public var thresholdMinimumContrast: Double = 12
        /// A row is inked when it holds at least the ink of the strong rows (the 90th percentile) divided by this
        /// (integer division): rows through the vertical strokes of a short number carry far less ink than rows
        /// through the horizontal segments of a long one, so the bar is low, and a `71` is not cut at its waist.
        /// Was 5 until 9f63fb2 lowered the bar for that reason, with no measurement recorded.
        public var inkedRowDivisor = 12
        /// ...and at least this many ink pixels.
        public var minimumInkedRowCount = 2
        /// A band is a run of inked rows or a merge of up to this many neighbouring runs (a line whose segments
        /// leave an empty row at the waist, or whose thin top bar stands apart). Since 9f63fb2.
        public var maximumMergedRuns = 3
        /// Merged runs must sit close: each gap between them at most this share (0...1) of the merged band's
        /// height. Since 9f63fb2.
        public var maximumRunGap = 0.25
        /// A column belongs to a band's line when more than the band's height divided by this (integer division)
        /// of its pixels inside the band are ink.
        public var columnInkDivisor = 8
        /// A band's line must be at least its height divided by this (integer division) wide, in pixels.
        public var minimumWidthDivisor = 2
        public init() {}
    }

    public var configuration: Configuration

    private var integral = IntegralImage()
    private var dark = InkMask(width: 0, height: 0)
    private var light = InkMask(width: 0, height: 0)
    private var profile: [Int] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public mutating func lines(in image: GrayImage) -> [TextLine] {
        let c = configuration
        guard image.width >= c.minimumWidth, image.height >= c.minimumHeight else { return [] }
        integral.update(from: image)
        let radius = max(c.minimumThresholdRadius, min(image.width, image.height) / c.thresholdRadiusDivisor)
        AdaptiveThreshold(radius: radius, k: c.thresholdK, minimumContrast: c.thresholdMinimumContrast)
            .apply(image, integral: integral, dark: &dark, light: &light)
        var out: [TextLine] = []
        out += bands(in: dark, polarity: .dark)
        out += bands(in: light, polarity: .light)
        return out
    }

    private mutating func bands(in mask: InkMask, polarity: InkPolarity) -> [TextLine] {
        let c = configuration
        let w = mask.width, h = mask.height
        let x0 = Int(Double(w) * c.sideMargin), x1 = w - x0
        profile.removeAll(keepingCapacity: true)
        for y in 0..<h { profile.append(mask.inkCount(in: PixelRect(x: x0, y: y, width: x1 - x0, height: 1))) }
        let sorted = profile.sorted()
        let strong = sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        guard strong > 0 else { return [] }
        // Rows through the vertical strokes of a short number carry far less ink than rows through the
        // horizontal segments of a long one: a low bar, so a `71` is not cut at its waist.
        let threshold = max(c.minimumInkedRowCount, strong / c.inkedRowDivisor)
        // Runs of inked rows. A line of digits can show up as one run or, where its segments leave an empty
        // row at the waist or a thin top bar stands apart, as two or three runs close together; lines stacked
        // closely (SYS above DIA) look the same. Propose each run and each merge of up to three neighbours,
        // and let reading decide.
        var runs: [ClosedRange<Int>] = []
        var y = 0
        while y < h {
            guard profile[y] >= threshold else { y += 1; continue }
            let top = y
            var bottom = y
            while y < h && (profile[y] >= threshold || (y + 1 < h && profile[y + 1] >= threshold)) {
                if profile[y] >= threshold { bottom = y }
                y += 1
            }
            runs.append(top...bottom)
        }
        var result: [TextLine] = []
        for first in runs.indices {
            for last in first..<min(runs.count, first + c.maximumMergedRuns) {
                let top = runs[first].lowerBound, bottom = runs[last].upperBound
                let height = bottom - top + 1
                guard height >= c.minimumHeight, height >= h / c.imageHeightDivisor else { continue }
                // Merged runs must sit close: each gap at most a share of the whole height.
                let gaps = (first..<last).map { runs[$0 + 1].lowerBound - runs[$0].upperBound - 1 }
                guard gaps.allSatisfy({ Double($0) <= c.maximumRunGap * Double(height) }) else { continue }
                if let line = line(in: mask, top: top, height: height, x0: x0, x1: x1, polarity: polarity) {
                    result.append(line)
                }
            }
        }
        return result
    }

    private func line(in mask: InkMask, top: Int, height: Int, x0: Int, x1: Int, polarity: InkPolarity) -> TextLine? {
        // Horizontal extent: columns with ink inside the band.
        let columnInk = height / configuration.columnInkDivisor
        var first = -1, last = -1
        for x in x0..<x1 where mask.inkCount(in: PixelRect(x: x, y: top, width: 1, height: height)) > columnInk {
            if first < 0 { first = x }
            last = x
        }
        guard first >= 0, last - first >= height / configuration.minimumWidthDivisor else { return nil }
        let box = PixelRect(x: first, y: top, width: last - first + 1, height: height)
        let candidate = CharacterCandidate(box: box, fill: 0, polarity: polarity, level: 0)
        var line = TextLine(
            candidates: [candidate], polarity: polarity, centerX: box.midX, centerY: box.midY, angle: 0,
            length: Double(box.width), digitHeight: Double(height))
        line.candidatesAreCharacters = false
        return line
    }
}
