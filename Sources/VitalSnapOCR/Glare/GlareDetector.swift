import VitalSnapImaging

/// Finds glare on a display: blobs much brighter than the display's own background, near saturation. A
/// reflection washes segments out, so a digit under glare may read as another digit (an 8 losing a segment
/// becomes a 9 or a 0); the reading must not trust digits it covers.
public struct GlareDetector: Sendable {
    /// The thresholds, like ssocr's `defines.h`: each with its unit and how it was chosen. They were set by hand
    /// on the sample stills (their glare stills among them) and checked on the real photo folders, commit by
    /// commit (a93d751, 3f5fa75, f7dc558, b3febd1, 6abc597: each names what it changed on which folder).
    public struct Configuration: Sendable {
        /// Pixels at least this bright (grey level, 0...255) can be glare... (230 until 2026-11-28: an LCD lit
        /// unevenly reaches 231-243 across its own background, a generated bp-lcd monitor's at a median of 197,
        /// and 14 readings of the generated families were refused under no glare at all; at 240, 5 of them are
        /// read and nothing more is read wrong, at 244 a glucose meter's dimmer glare is missed and read wrong.)
        public var minimumLevel = 240
        /// ...and at least this far from the display background towards white (a share 0...1 of the room left
        /// between the background and white)...
        public var minimumLift = 0.55
        /// ...and at least this many grey levels above the background.
        public var minimumStep = 25
        /// Blobs smaller than this share of the display's area (0...1) are specks, not glare.
        public var minimumShare = 0.004
        /// The display's background level is this percentile (0...1) of its grey levels where the ink is dark
        /// (most of the window is background, lighter than the ink)...
        public var backgroundPercentileForDarkInk = 0.6
        /// ...and this one where the ink is light (the background is the darker part).
        public var backgroundPercentileForLightInk = 0.3
        /// On a backlit display, the lit segments' level is this percentile (0...1) of the display's grey levels...
        public var litPercentile = 0.99
        /// ...and glare there is as bright as this share (0...1) of the way from the background to that level:
        /// backlit digits may be no darker than a reflection on the glass, and neither need be near white.
        public var litShare = 0.75
        /// On a backlit display only a solid spot at least this many digit heights wide (an integer divisor:
        /// a quarter) is glare: a lit stroke is narrower.
        public var solidCoreDigitDivisor = 4
        /// ...and a blob shaped as one lit digit, at least `digitShapedHeight` digit heights tall across its line
        /// and at most `digitShapedWidth` long along it, only with a solid core a third of a digit height wide:
        /// a colour screen's bold font has strokes a quarter of its height wide, and its lit `4` (a pink `84`
        /// whose `4` glowed brighter than its `8`, seeds 900001 and 900002 of the generated bp-color family) was
        /// refused as glare. A reflection is a spot, not a digit's outline: glucose-morepen's glint beside the `1`
        /// of `103` (IMG_8972, read `403`) is a third of a digit height tall and still refuses it; with the third
        /// for every blob, it did not.
        public var digitShapedCoreDivisor = 3
        public var digitShapedHeight = 0.8
        public var digitShapedWidth = 0.8
        /// A reflection is a compact spot: at most this many times longer than wide...
        public var compactAspect = 3
        /// ...and filling at least this share (0...1) of its bounding box; a strip or ring of the bright body
        /// beside the window is not.
        public var compactFill = 0.5
        /// Glare pixels filling at least this share (0...1) of a digit's box (and no fewer than 4) cover the digit.
        public var digitCoverShare = 0.01
        /// On a display with dark digits, a blob still reaching the edge of where it was followed, and no compact
        /// spot, is mostly the device's bright body beside the window; it covers a digit only where it fills at
        /// least this share (0...1) of the digit's box. A located line can reach past a window whose edge runs
        /// slanted by its last digit, and its last box onto the white casing there: two fuel pumps (`59.00`,
        /// `60.91`) were refused as under glare that lay on no digit. At 0.1 both are read (at 0.25 too), and
        /// nothing else changed, photo by photo, in the real folders, the stills or the generated families at
        /// seeds 900001 and 900002 (2026-12-06, issue 41).
        public var bodyCoverShare = 0.1
        /// A thresholded image (a clinic's binarized crop of a field) has no glare to find: its white is paper or
        /// digits, not a reflection, and its only grey is JPEG ringing along edges. It is told by its mid-tones,
        /// the levels more than `binarizedMargin` from black and from white: at most this share of the display.
        /// Measured over whole images: binarized BP fields (display crops) at most 0.30, median 0.07; photos of
        /// displays (fuel pumps, electricity meters, panel meters, the samples, lit-on-dark ones included) at
        /// least 0.43.
        public var maximumMidtoneShareOfBinarized = 0.35
        /// ...the levels within this of 0 or 255 count as black or white there.
        public var binarizedMargin = 16
        public init() {}
    }

    public var configuration: Configuration

    private var mask = InkMask(width: 0, height: 0)
    private var labeler = ConnectedComponents()
    private var columnRuns: [Int] = []
    private var histogram = Histogram()
    private var inner: [PixelRect] = []
    /// The regions that may cover the digits, each with whether it is the device's bright body (it reaches the
    /// edge of where blobs are followed and is no compact spot): every one, but on a backlit display no body.
    private var overDigits: [(box: PixelRect, isBody: Bool)] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// `display`: the display region in `image`; `digits`: boxes of the characters being read.
    /// `polarity`: backlit displays have bright digits, which are not glare.
    /// `nearby`: places beside the digits where glare may hide a whole digit (the cell before and after a
    /// number). Only a compact spot counts there: blobs are followed a digit height beyond `display`, and
    /// one still reaching the edge of that, or a long strip, is the device's bright body around the window.
    /// `digitHeight`: the digits' height across their line, in pixels, where the reader knows it; nil: the
    /// tallest of `digits`. (A sideways line's boxes are as tall as its characters are wide, and a lit stroke
    /// of a backlit display is then wider than a quarter of that: the lit digits themselves became glare.)
    /// `linesReadUpOrDown`: the lines read up or down the image (a sideways photo), so that blobs are followed
    /// a digit height beyond `display` above and below it, where its numbers end, and half of one beside it.
    public mutating func detect(
        in image: GrayImage, display: PixelRect, digits: [PixelRect], nearby: [PixelRect] = [], polarity: InkPolarity,
        digitHeight knownDigitHeight: Int? = nil, linesReadUpOrDown: Bool = false
    ) -> GlareReport {
        examine(
            image, display: display, digits: digits, nearby: nearby, polarity: polarity, digitHeight: knownDigitHeight,
            linesReadUpOrDown: linesReadUpOrDown
        ).report
    }

    /// As `detect`, with what the glare covers place by place: the report's `coversDigits` is
    /// `cover.coversAnything`, which takes every covered place beside a number as hiding a digit; a reader that
    /// knows which digits could hide there (`GlareCheck`) asks the cover instead.
    public mutating func examine(
        _ image: GrayImage, display: PixelRect, digits: [PixelRect], nearby: [PixelRect] = [], polarity: InkPolarity,
        digitHeight knownDigitHeight: Int? = nil, linesReadUpOrDown: Bool = false
    ) -> (report: GlareReport, cover: GlareCover) {
        let region = display.intersection(image.bounds)
        guard region.area > 0 else { return (.none, .none) }
        histogram.update(image, in: region)
        guard !isBinarized(histogram) else { return (.none, .none) }
        let background = histogram.percentile(
            polarity == .dark ? configuration.backgroundPercentileForDarkInk : configuration.backgroundPercentileForLightInk)
        // Glare stands out from the display's own background, by a share of the room left below white and
        // by at least `minimumStep` levels: a display that is simply bright all over is not glare.
        let c = configuration
        var level = max(c.minimumLevel, background + max(c.minimumStep, Int(c.minimumLift * Double(255 - background))))
        if polarity == .light {
            // Backlit digits may be no darker than a reflection on the glass, and neither need be near white:
            // glare there is as bright as most of the lit segments, and told from them by its solid core.
            let lit = histogram.percentile(c.litPercentile)
            level = min(level, max(background + c.minimumStep, background + Int(c.litShare * Double(lit - background))))
        }
        guard level <= 255 else { return (.none, .none) }
        let digitHeight = knownDigitHeight ?? digits.lazy.map { $0.height }.max() ?? 0
        let search = (linesReadUpOrDown
            ? display.insetBy(dx: -digitHeight / 2, dy: -digitHeight)
            : display.insetBy(dx: -digitHeight, dy: -digitHeight / 2)).intersection(image.bounds)
        image.pixels.withUnsafeBufferPointer { p in
            mask.reshape(width: search.width, height: search.height)
            mask.pixels.withUnsafeMutableBufferPointer { m in
                for y in 0..<search.height {
                    let row = (search.minY + y) * image.width + search.minX
                    for x in 0..<search.width { m[y * search.width + x] = Int(p[row + x]) >= level ? 1 : 0 }
                }
            }
        }
        // Glare pixels of the mask inside `place` (image coordinates).
        func glarePixels(in place: PixelRect) -> Int {
            let r = place.intersection(search)
            var count = 0
            for y in r.minY..<max(r.minY, r.maxY) {
                for x in r.minX..<max(r.minX, r.maxX) where mask[x - search.minX, y - search.minY] { count += 1 }
            }
            return count
        }
        let minimumArea = max(4, Int(c.minimumShare * Double(region.area)))
        var regions: [PixelRect] = []
        inner.removeAll(keepingCapacity: true)
        overDigits.removeAll(keepingCapacity: true)
        var area = 0
        for blob in labeler.label(mask, minimumArea: minimumArea) {
            let r = PixelRect(x: blob.box.x + search.x, y: blob.box.y + search.y, width: blob.box.width, height: blob.box.height)
            // Enough of it on the display, or in a cell beside the number (which may lie past the display's
            // edge as the reader drew it: glare there can hide the whole first or last digit).
            let onDisplay = glarePixels(in: r.intersection(region))
            guard onDisplay >= minimumArea || nearby.contains(where: { glarePixels(in: r.intersection($0)) >= minimumArea })
            else { continue }
            // On a backlit display the digits themselves are bright: only a solid spot wider than any stroke
            // counts.
            if polarity == .light {
                let (along, across) = linesReadUpOrDown ? (r.height, r.width) : (r.width, r.height)
                let digitShaped = Double(across) >= c.digitShapedHeight * Double(digitHeight)
                    && Double(along) <= c.digitShapedWidth * Double(digitHeight)
                let divisor = digitShaped ? c.digitShapedCoreDivisor : c.solidCoreDigitDivisor
                if !hasSolidCore(r, side: max(3, digitHeight / divisor), search: search) { continue }
            }
            regions.append(r)
            area += onDisplay
            let touchesEdge = blob.box.minX == 0 || blob.box.minY == 0 || blob.box.maxX == search.width || blob.box.maxY == search.height
            // A reflection is a compact spot inside where blobs are followed; a strip or ring of the bright body
            // beside the window is not.
            let compact = max(r.width, r.height) <= c.compactAspect * min(r.width, r.height) && blob.fill >= c.compactFill
            let spot = !touchesEdge && compact
            if spot { inner.append(r) }
            // On a backlit display a blob still reaching the edge of where it was followed is the device's bright
            // body around the dark window, joined to the lit digits (a lit bar, a blurred edge) where the level
            // that tells glare from backlit digits is below the body's grey: it covers the digits only through
            // their own lit strokes. (In the generated families it refused 46 readings right, none of them under
            // glare.) Nor is a strip or a ring lit over the digits there: a lit band joined to the lit strokes, an
            // unevenly lit LCD's bright part read as backlit (2026-12-02: four generated readings right, under no
            // glare, had been refused so at seeds 900001 and 900002; nothing more read wrong). Only a spot counts.
            // On a display with dark digits such a body counts, held to `bodyCoverShare` of a digit's box.
            let body = touchesEdge && !compact
            if polarity == .dark || spot { overDigits.append((r, body)) }
        }
        // Glare pixels on a digit, not merely a blob's bounding box over it: the bright body around a display
        // is one blob whose box spans the whole window.
        func covered(_ place: PixelRect, by blob: PixelRect, share: Double) -> Bool {
            let overlap = place.intersection(blob)
            return !overlap.isEmpty && glarePixels(in: overlap) >= max(4, Int(share * Double(place.area)))
        }
        var cover = GlareCover(characters: overDigits.contains { blob in
            digits.contains { covered($0, by: blob.box, share: blob.isBody ? c.bodyCoverShare : c.digitCoverShare) }
        })
        for (i, place) in nearby.enumerated()
        where inner.contains(where: { covered(place, by: $0, share: c.digitCoverShare) }) {
            cover.cover(place: i)
        }
        let report = GlareReport(regions: regions, share: Double(area) / Double(region.area), coversDigits: cover.coversAnything)
        return (report, cover)
    }

    /// Whether the histogram is of a thresholded image: almost nothing but black and white.
    func isBinarized(_ histogram: Histogram) -> Bool {
        guard histogram.total > 0 else { return false }
        let margin = configuration.binarizedMargin
        let midtones = histogram.counts[(margin + 1)..<(255 - margin)].reduce(0, +)
        return Double(midtones) <= configuration.maximumMidtoneShareOfBinarized * Double(histogram.total)
    }

    /// Whether the mask holds a solid square of `side` pixels inside `box` (image coordinates): a
    /// reflection is a filled spot, a lit digit only strokes a fraction of its height wide.
    mutating func hasSolidCore(_ box: PixelRect, side: Int, search: PixelRect) -> Bool {
        let x0 = box.minX - search.minX, y0 = box.minY - search.minY
        guard box.width >= side, box.height >= side else { return false }
        // Per column, the run of glare pixels ending at the current row; a square is `side` adjacent columns
        // whose runs all reach `side`.
        columnRuns.removeAll(keepingCapacity: true)
        columnRuns.append(contentsOf: repeatElement(0, count: box.width))
        for y in y0..<(y0 + box.height) {
            var wide = 0
            for i in 0..<box.width {
                columnRuns[i] = mask[x0 + i, y] ? columnRuns[i] + 1 : 0
                wide = columnRuns[i] >= side ? wide + 1 : 0
                if wide >= side { return true }
            }
        }
        return false
    }
}
