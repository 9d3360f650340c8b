import VitalSnapImaging

/// Stage: whether glare covers the digits of a reading.
///
/// Input: the image read, its reading, and which digits could hide beside each of its numbers. Output: a
/// `GlareReport` over that image; the reader refuses a value whose digits it covers. Glare matters where it covers
/// the characters themselves or the gaps between them, and the cell just before and after the number where a whole
/// digit could hide there (11.4 read as 1.4; but no digit before an SpO2 of 94 makes another SpO2), but not the rest
/// of the display.
/// Keeps its boxes between images.
public struct GlareCheck: Sendable {
    public struct Configuration: Sendable {
        /// The cell looked at before and after a number is this many digit heights wide: a digit's cell and the
        /// gap before it. (0.6 until 2026-12-02: a reflection over the hidden `16` of a generated scale's `165.8`
        /// ended a pixel short of that cell, and `5.8` was read.)
        public var neighbourCellWidth = 0.8
        /// Glare beside a number that reaches within this many digit heights of it covers the number whatever
        /// digit could hide there: it may be washing out the number's own first or last digit, which is then read
        /// as another (a glucose meter's `103` under a reflection just before its `1`, read `403`).
        public var hiddenDigitClearance = 0.25
        /// The display is looked at this many digit heights (of the tallest line) around the lines, besides the
        /// neighbouring cells: only just around them, since further out lies the body of the device, often
        /// white plastic.
        public var displayMargin = 0.2
        /// Glare anywhere between a number's first and last character covers it, not only glare on a
        /// character's own box (off: the characters' boxes alone, as until 2026-12-02).
        public var coverSpanBetweenCharacters = true
        /// Glare over a stretch of a located line that its characters read leave unread, a stretch with room for
        /// a whole digit (`neighbourCellWidth`), counts as beside the number where a digit could hide there: the
        /// digit the glare washed out is why nothing was read there (a generated scale's `165.8`, its `6` under a
        /// reflection, read `5.8`). The stretch starts `unreadStretchClearance` from the characters read. On a
        /// backlit display the glare there must be brighter than the number's own lit digits (`litDigitShare`):
        /// a lit icon beside a number is as bright as its digits. Off: only the cells beyond the located line's
        /// ends, as until 2026-12-07.
        public var coverUnreadStretches = true
        /// An unread stretch starts this many digit heights from the first or last character read: a trained
        /// recognizer's character box is a narrow spike on its digit, which reaches about this far past it.
        public var unreadStretchClearance = 0.5
        /// The lit digits' level is this share (0...1) of the way up the grey levels of the characters' span.
        public var litDigitShare = 0.95
        public init() {}
    }

    public var configuration: Configuration
    public var detector = GlareDetector()
    private var digitBoxes: [PixelRect] = []
    /// The places beside the numbers, for the detector: for line `i` of `n`, its two cells at `2i` and `2i + 1`
    /// (before and after it along the image's x, or y where it reads up or down) and the strips of those cells
    /// nearest the number (`hiddenDigitClearance` wide) at `2n + 2i` and `2n + 2i + 1`, and the stretches of the
    /// located line left unread before and after its characters at `4n + 2i` and `4n + 2i + 1` (empty where there
    /// is none with room for a digit).
    private var nearbyBoxes: [PixelRect] = []
    /// Each line's characters' span, first to last (nil for a line of none), as `check` found it.
    private var spans: [PixelRect?] = []
    private var histogram = Histogram()

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Whether glare covers `reading`'s digits in `image`. `digitMayHide(i, side)`: whether a digit hidden at
    /// `side` of the number of `reading.lines[i]` could make another plausible value of its field
    /// (`ReadingAssembler.digitMayHide`); without it, any could.
    public mutating func check(
        _ image: GrayImage, reading: Reading, digitMayHide: (Int, GlareCover.Side) -> Bool = { _, _ in true }
    ) -> GlareReport {
        guard let first = reading.lines.first, let union = reading.linesBox else { return .none }
        digitBoxes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        for line in reading.lines {
            var span: PixelRect?
            for c in line.characters {
                let box = line.imageBox(of: c)
                digitBoxes.append(box)
                span = span.map { $0.union(box) } ?? box
            }
            // And the number's whole span, first character to last: a trained recognizer's character boxes are
            // narrow spikes on the digits, and a digit washed out between two of them leaves no box of its own
            // (a generated scale's 142.3 read 14.3, the reflection over its 2 between the 4 and the point).
            if configuration.coverSpanBetweenCharacters, let span, line.characters.count > 1 { digitBoxes.append(span) }
            spans.append(span)
        }
        nearbyBoxes.removeAll(keepingCapacity: true)
        for line in reading.lines {
            let (before, after) = cells(beside: line, width: configuration.neighbourCellWidth)
            nearbyBoxes.append(before)
            nearbyBoxes.append(after)
        }
        for line in reading.lines {
            let (before, after) = cells(beside: line, width: configuration.hiddenDigitClearance)
            nearbyBoxes.append(before)
            nearbyBoxes.append(after)
        }
        if configuration.coverUnreadStretches {
            for line in reading.lines {
                let (before, after) = unreadStretches(of: line, atLeast: configuration.neighbourCellWidth)
                nearbyBoxes.append(before)
                nearbyBoxes.append(after)
            }
        }
        let margin = Int(first.digitHeight * configuration.displayMargin)
        let cell = Int(configuration.neighbourCellWidth * first.digitHeight)
        // The display reaches a cell beyond the number's ends: above and below it where it reads up or down.
        let sideways = first.corners.map(Self.readsUpOrDown) ?? false
        let display = union.transposed(sideways).insetBy(dx: -margin - cell, dy: -margin).transposed(sideways)
        // The digits' height across their lines, which a sideways line's character boxes do not give.
        let digitHeight = Int(reading.digitHeight)
        // Covered: the characters, or a cell beside a number where the glare comes close to it or a digit could
        // hide. Lines read backwards in the image (right to left, or up it) have their number's start at the cell
        // of the larger x (or y).
        // `brighterThanDigits(i)`: the cover of glare brighter than line `i`'s lit digits (a backlit display).
        func covers(_ cover: GlareCover, brighterThanDigits: (Int) -> GlareCover) -> Bool {
            if cover.characters { return true }
            let n = reading.lines.count
            for (i, line) in reading.lines.enumerated() {
                let backwards = Self.readsBackwards(line)
                for k in 0..<2 {
                    // k = 0: the cell of the smaller x (or y), before the number unless the line reads backwards.
                    let side: GlareCover.Side = (k == 0) != backwards ? .before : .after
                    if cover.coversPlace(2 * i + k) && (cover.coversPlace(2 * n + 2 * i + k) || digitMayHide(i, side)) {
                        return true
                    }
                    let stretch = 4 * n + 2 * i + k
                    if configuration.coverUnreadStretches && cover.coversPlace(stretch) && digitMayHide(i, side)
                        && (first.polarity == .dark || brighterThanDigits(i).coversPlace(stretch)) {
                        return true
                    }
                }
            }
            return false
        }
        var (report, cover) = detector.examine(
            image, display: display, digits: digitBoxes, nearby: nearbyBoxes, polarity: first.polarity,
            digitHeight: digitHeight, linesReadUpOrDown: sideways)
        // The cover found with glare held to be brighter than line `i`'s lit digits, for a backlit display's
        // unread stretches: the detector's level raised to just above them, the display taken as one with dark
        // digits (so that a spot need not be wider than a stroke). The last line's is kept: both ends of a line,
        // and the pass with the other polarity, ask for the same line in turn.
        var lastBrighter: (line: Int, cover: GlareCover)?
        func brighterThanDigits(_ i: Int) -> GlareCover {
            if let lastBrighter, lastBrighter.line == i { return lastBrighter.cover }
            guard let span = spans[i] else { return .none }
            histogram.update(image, in: span.intersection(image.bounds))
            let saved = detector.configuration.minimumLevel
            defer { detector.configuration.minimumLevel = saved }
            detector.configuration.minimumLevel = histogram.percentile(configuration.litDigitShare)
                + detector.configuration.minimumStep
            let cover = detector.examine(
                image, display: display, digits: digitBoxes, nearby: nearbyBoxes, polarity: .dark,
                digitHeight: digitHeight, linesReadUpOrDown: sideways).cover
            lastBrighter = (i, cover)
            return cover
        }
        report.coversDigits = covers(cover, brighterThanDigits: brighterThanDigits)
        // A line cut from a crop of the display has no rows of the display above and below its digits to tell
        // its polarity against, and a bright end of the window makes dark digits look light; taken the wrong
        // way, the display's own bright background becomes glare (an orange electricity meter's, refused).
        // There glare must be found over the digits with the other polarity too.
        guard report.coversDigits, !first.polarityIsSure else { return report }
        let other = detector.examine(
            image, display: display, digits: digitBoxes, nearby: nearbyBoxes,
            polarity: first.polarity == .dark ? .light : .dark, digitHeight: digitHeight, linesReadUpOrDown: sideways)
        if covers(other.cover, brighterThanDigits: brighterThanDigits) { return report }
        report.coversDigits = false
        return report
    }

    /// The cells `width` digit heights wide just beyond each end of `line`'s number along the image's x (y where
    /// it reads up or down), the smaller coordinate's first: beside the number as located where the locator knew
    /// its ends (a trained recognizer's character boxes are narrow spikes on the digits), else beside the
    /// characters read. Worked out as for a line across the image, in a frame with x and y swapped where it reads
    /// up or down.
    private func cells(beside line: RecognizedLine, width share: Double) -> (PixelRect, PixelRect) {
        let cell = Int(share * line.digitHeight)
        let upOrDown = line.corners.map(Self.readsUpOrDown) ?? false
        let read = line.boundingBox.transposed(upOrDown)
        var box = read
        if let located = line.locatedBox?.transposed(upOrDown) {
            // Its ends only: the cells keep the characters' rows.
            box = read.union(located)
            box.y = read.y
            box.height = read.height
        }
        return (PixelRect(x: box.minX - cell, y: box.minY, width: cell, height: box.height).transposed(upOrDown),
                PixelRect(x: box.maxX, y: box.minY, width: cell, height: box.height).transposed(upOrDown))
    }

    /// The stretches of `line` as located that lie before and after its characters read along the image's x (y
    /// where it reads up or down), the smaller coordinate's first, in the characters' rows; each empty where it is
    /// narrower than `share` digit heights, no room for a digit of its own, or where the locator's ends are not
    /// known.
    private func unreadStretches(of line: RecognizedLine, atLeast share: Double) -> (PixelRect, PixelRect) {
        let upOrDown = line.corners.map(Self.readsUpOrDown) ?? false
        guard let located = line.locatedBox?.transposed(upOrDown) else { return (.zero, .zero) }
        let read = line.boundingBox.transposed(upOrDown)
        let room = Int(share * line.digitHeight)
        let clear = Int(configuration.unreadStretchClearance * line.digitHeight)
        let before = PixelRect(
            x: located.minX, y: read.minY, width: read.minX - clear - located.minX, height: read.height)
        let after = PixelRect(
            x: read.maxX + clear, y: read.minY, width: located.maxX - read.maxX - clear, height: read.height)
        return (before.width >= room ? before.transposed(upOrDown) : .zero,
                after.width >= room ? after.transposed(upOrDown) : .zero)
    }

    /// Whether `line` reads towards the smaller x of the image (y where it reads up or down): turned over, its
    /// number starts at the other end.
    static func readsBackwards(_ line: RecognizedLine) -> Bool {
        guard let q = line.corners else { return false }
        return readsUpOrDown(q) ? q.topRight.y < q.topLeft.y : q.topRight.x < q.topLeft.x
    }

    /// Whether a line's reading direction is closer to vertical than to horizontal: a sideways photo's line.
    /// (Where it is, the check's boxes are worked out with x and y swapped: `PixelRect.transposed`.)
    static func readsUpOrDown(_ quad: LineQuad) -> Bool {
        abs(quad.topRight.y - quad.topLeft.y) > abs(quad.topRight.x - quad.topLeft.x)
    }
}

extension PixelRect {
    /// This rectangle with x and y swapped where `swapped` (a mirror about the diagonal: done twice, the same
    /// rectangle), as it is otherwise.
    fileprivate func transposed(_ swapped: Bool) -> PixelRect {
        swapped ? PixelRect(x: y, y: x, width: height, height: width) : self
    }
}
