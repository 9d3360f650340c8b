import Logging
import VitalSnapImaging

/// Reads the characters of a rectified line: separates ink from background, groups the ink into character
/// cells, and decides for each cell which of the seven segments are lit by probing where each segment must be.
///
/// Segments are judged on how dark they are compared with the line's lit strokes, not on the binary mask: the
/// faint "ghosts" of unlit LCD segments are darker than the background too, and a mask that lets them in would
/// turn every 4 into a 9.
///
/// Every threshold is a field of `configuration`.
public struct RuleCharacterRecognizer: CharacterRecognizer {
    public var configuration: Configuration
    /// A value is only read from a line whose every character is at least this clear: the default
    /// configuration's `minimumReadingConfidence`.
    public static var minimumReadingConfidence: Double { Configuration().minimumReadingConfidence }

    /// Each decision is traced at level `trace` (`vitalsnap inspect --verbose`).
    private let logger = Logger(label: "vitalsnap.ocr")
    /// The binarized line of the last `recognize` (for inspection).
    public private(set) var mask = InkMask(width: 0, height: 0)
    private var separator = InkSeparator()
    private var runScratch = InkMask(width: 0, height: 0)
    private var labeler = ConnectedComponents()
    private var along: [Int] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
        let image = line.image
        let H = line.digitHeight, Hd = Double(line.digitHeight)
        let top = line.digitTop, bottom = line.digitBottom
        let band = PixelRect(x: 0, y: top, width: image.width, height: H)
        let strokeRadius = max(configuration.ink.minimumStrokeRadius, H / configuration.ink.strokeRadiusDivisor)
        guard separator.separate(image, strokeRadius: strokeRadius, thresholdRegion: band, into: &mask) != nil else {
            return .empty
        }
        let bandHistogram = Histogram(image, in: band)
        let contrast = bandHistogram.percentile(configuration.ink.contrastUpperPercentile)
            - bandHistogram.percentile(configuration.ink.contrastLowerPercentile)
        // Flat runs longer than a segment are bezel edges or printed lines touching the digits. (Vertical
        // edges are left whole: cut up, their pieces would pass for `1`s; whole, they are too tall to be one.)
        LongRunRemoval(maximumHorizontal: Int(configuration.ink.longestFlatRun * Hd), maximumVertical: Int.max, margin: 0)
            .apply(&mask, scratch: &runScratch)
        let allComponents = labeler.label(mask, minimumArea: configuration.ink.minimumComponentArea)
        let reach = H / configuration.cells.bandReachDivisor
        let components = allComponents.filter { c in
            // Ink that reaches into the digit band, and is not a frame or shadow taller than the digits, nor a
            // long flat bar that would join the digits it passes over into one cell.
            // (Well into it: where lines are packed, the foot of the line above reaches into the band's edge.)
            c.box.maxY > top + reach && c.box.minY < bottom - reach
                && Double(c.box.height) < configuration.cells.maximumHeight * Hd
                && !(Double(c.box.width) > configuration.cells.barMinimumWidth * Hd
                    && Double(c.box.height) < configuration.cells.barMaximumHeight * Hd)
        }
        // Dots, set aside so they do not merge into a digit. (From all components: a small point sits on the
        // baseline, below the band's inner rows.)
        let dots = allComponents.filter { isDot($0, bottom: bottom, height: Hd) }
        let cells = Self.groupByColumns(components.filter { !isDot($0, bottom: bottom, height: Hd) }, height: H, configuration.cells)
            .map { detachingFrame($0, top: top, height: H) }
            .flatMap { splitOffTouchingOne($0, height: H) }

        // Typical width of a full character, for telling a `1` from a digit and for the pitch.
        let wide = cells.filter {
            Double($0.height) >= configuration.cells.fullHeight * Hd
                && Double($0.width) >= configuration.cells.fullCharacterMinimumWidth * Hd
        }.map(\.width).sorted()
        let typicalWidth = wide.isEmpty ? configuration.cells.typicalWidthFallback * Hd : Double(wide[wide.count / 2])
        let stroke = Self.strokeWidth(mask, cells: cells, top: top, height: H, configuration.cells)
        let lineLit = litLevel(in: band, fraction: configuration.ink.lineLitPercentile)

        var characters: [RecognizedCharacter] = []
        for cell in cells {
            // Judge each cell against its own strokes where they are fainter than the line's (glare washes out
            // part of a display), but never against less than most of the line's level: a cell of nothing
            // but ghost segments must not read as an 8.
            let lit = max(litLevel(in: cell, fraction: configuration.ink.cellLitPercentile), configuration.ink.cellLitFloor * lineLit)
            if let c = classify(cell, typicalWidth: typicalWidth, stroke: stroke, lit: lit, top: top, height: H) {
                characters.append(c)
            }
        }
        let framed = withoutWindowFrame(characters, band: band, stroke: stroke)
        characters = framed.characters
        characters = rereadOnPitch(characters, stroke: stroke, lineLit: lineLit, height: H)
        logger.trace("""
            cells \(cells.map(\.description)) stroke \(stroke) typical \(typicalWidth) lit \(lineLit); \
            chars \(characters.map { "\($0.character)\($0.segments) \($0.box) al=\($0.isAligned)" }); \
            spans \(line.candidateSpans); dots \(dots.map { "\($0.box) fill \(String(format: "%.2f", $0.fill))" })
            """)
        // Keep only the number around the detected candidates: things beside it (unit labels, icons, bezel
        // edges) were picked up by looking past the candidates and are not part of it.
        let trimmed = Self.trimToCandidates(
            characters, spans: line.candidateSpans, typicalWidth: typicalWidth, configuration: configuration)
        // A point is printed as dark as the segments; specks of noise on the baseline are not.
        let darkDots = dots.filter {
            litLevel(in: $0.box, fraction: configuration.points.darknessPercentile) >= configuration.points.minimumDarkness * lineLit
        }
        characters = insertingDecimalPoints(into: trimmed.characters, dots: darkDots, stroke: stroke, bottom: bottom)

        let hasGap = trimmed.unclearNeighbour || framed.doubtful || !Self.isRegular(characters, configuration.pitch)
            || somethingInNextCell(of: characters, band: band, lit: lineLit, typicalWidth: typicalWidth, line: line)
        return LineTranscript(characters: characters, contrast: contrast, hasGap: hasGap, noise: strayInk(around: characters, band: band))
    }

    /// Share of the band around the characters covered by ink that belongs to none of them (1 when ink covers
    /// most of the band). A display's background is clean; wood grain, fabric or printed text that happened to
    /// line up is not.
    func strayInk(around characters: [RecognizedCharacter], band: PixelRect) -> Double {
        guard let first = characters.first, let last = characters.last else { return 0 }
        let span = PixelRect(x: first.box.minX, y: band.minY, width: last.box.maxX - first.box.minX, height: band.height)
        guard span.area > 0 else { return 0 }
        var stray = 0, ink = 0
        for y in span.minY..<span.maxY {
            for x in span.minX..<span.maxX where mask[x, y] {
                ink += 1
                if !characters.contains(where: { $0.box.insetBy(dx: -1, dy: -1).contains(x: x, y: y) }) { stray += 1 }
            }
        }
        // Seven-segment ink covers well under half of its band. More means the polarity is the wrong way
        // round: the gaps between dark digits read as light strokes (a row of `1`s). Only digits of five or
        // more segments in a bold font (88) come near half on their own.
        logger.trace("     ink share \(Double(ink) / Double(span.area)), stray \(Double(stray) / Double(span.area))")
        let number = configuration.number
        let full = characters.filter { $0.segments.rawValue.nonzeroBitCount >= number.boldSegments }.count
        let limit = full * 2 >= characters.count ? number.boldInkShare : number.maximumInkShare
        if Double(ink) > limit * Double(span.area) { return 1 }
        return Double(stray) / Double(span.area)
    }

    /// Whether the cell just before or just after the number holds ink too faint or too broken to have been
    /// read: a digit under a reflection or washed out by glare. Displays leave unused cells blank, so ink
    /// there means the number may be longer than what was read (a lost leading 2 turns 247 into 47). Faint
    /// ghosts of unlit segments stay below the level looked for, and the window frame (a line that runs on
    /// past the digits) does not count.
    ///
    /// A next cell beyond the end of the line's image, where the frame goes on, was never looked at: the
    /// number may go on there too (the line was found from its last digits only, a reflection hiding the
    /// first ones), so that counts as well.
    mutating func somethingInNextCell(
        of characters: [RecognizedCharacter], band: PixelRect, lit: Double, typicalWidth: Double, line: RectifiedLine
    ) -> Bool {
        let next = configuration.nextCell
        let glyphs = characters.filter { $0.character != "." }
        guard let first = glyphs.first, let last = glyphs.last else { return false }
        let edges = glyphs.map(\.box.maxX)
        let steps = zip(edges.dropFirst(), edges).map { $0 - $1 }.sorted()
        let pitch = steps.isEmpty ? Int(configuration.pitch.fallbackPitch * typicalWidth) : steps[steps.count / 2]
        let width = Int(typicalWidth)
        let darkness = separator.darkness, background = separator.background
        let level = UInt8(min(255, next.inkLevel * lit))
        let percentile = configuration.ink.backgroundPercentile
        let insideLevel = Double(Histogram(background, in: glyphs.dropFirst().reduce(first.box) { $0.union($1.box) }).percentile(percentile))
        for right in [first.box.maxX - pitch, last.box.maxX + pitch] {
            // The cell, less a stroke's margin on each side, so the neighbours' strokes do not count.
            let inset = max(2, width / next.insetDivisor)
            let whole = PixelRect(x: right - width + inset, y: band.minY, width: width - 2 * inset, height: band.height)
            let cell = whole.intersection(darkness.bounds)
            if 2 * cell.width < whole.width, right < first.box.maxX {
                let centre = line.toFrame.apply(whole.midX, whole.midY)
                if line.frameBounds.contains(x: Int(centre.x), y: Int(centre.y)) { return true }
                continue
            }
            guard cell.width >= 3, cell.height >= 3 else { continue }
            // Beyond the display window (bezel, body) there is no cell to worry about.
            let here = Double(Histogram(background, in: cell).percentile(percentile))
            guard abs(here - insideLevel) <= next.backgroundTolerance * max(insideLevel, 1) else { continue }
            var count = 0, x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min
            for y in cell.minY..<cell.maxY {
                for x in cell.minX..<cell.maxX where darkness[x, y] >= level {
                    count += 1; x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                }
            }
            guard Double(count) >= next.minimumInkShare * Double(cell.area) else { continue }
            let ink = PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
            // A digit, even faint or broken, has a vertical stroke of a good part of the cell's height; icons
            // (a battery, a drop) and flat bars (the edge of the window, a printed line) do not.
            var longestStroke = 0
            for x in cell.minX..<cell.maxX {
                var run = 0
                for y in cell.minY..<cell.maxY {
                    run = darkness[x, y] >= level ? run + 1 : 0
                    longestStroke = max(longestStroke, run)
                }
            }
            if Double(longestStroke) < next.minimumStroke * Double(band.height) { continue }
            // A unit symbol (°C, %) sits beside the top of the digits only; a digit, even a smaller one (the
            // tenths of a meter), reaches down towards the baseline.
            if Double(ink.maxY - band.minY) < next.minimumReachDown * Double(band.height) { continue }
            if continuesBeyond(ink, height: band.height) { continue }  // a frame or bezel edge, not a digit
            // A vertical line through a digit crosses at most three bars (a, g, d); a stack of more is a
            // signal-strength or battery gauge beside the number.
            var mostBars = 0
            for x in (ink.minX + ink.width / 3)...max(ink.minX + ink.width / 3, ink.maxX - 1 - ink.width / 3) {
                var bars = 0, inBar = false
                for y in cell.minY..<cell.maxY {
                    let on = darkness[x, y] >= level
                    if on && !inBar { bars += 1 }
                    inBar = on
                }
                mostBars = max(mostBars, bars)
            }
            if mostBars >= next.gaugeBars { continue }
            logger.trace("     ink in next cell \(cell): \(count) px, box \(ink), background \(here) vs \(insideLevel)")
            return true
        }
        return false
    }

    /// Whether the characters look like one number of one display: a display draws its digits in cells of
    /// one width at one pitch (a `1` at the right of its cell, so right edges keep the pitch). Irregular
    /// spacing or widths mean a character is missing, an extra one was picked up, or this is not a
    /// seven-segment number at all (printed text, a grille).
    static func isRegular(_ characters: [RecognizedCharacter], _ configuration: Configuration.Pitch) -> Bool {
        let glyphs = characters.filter { $0.character != "." && $0.character != "-" }
        guard glyphs.count >= 2 else { return true }
        let edges = glyphs.map { Double($0.box.maxX) }
        let steps = zip(edges.dropFirst(), edges).map { $0 - $1 }
        let sortedSteps = steps.sorted()
        let pitch = sortedSteps[sortedSteps.count / 2]
        guard pitch > 0,
            steps.allSatisfy({ $0 >= configuration.regularMinimumStep * pitch && $0 <= configuration.regularMaximumStep * pitch })
        else { return false }
        let widths = glyphs.filter { $0.character != "1" && $0.character != "I" }.map { Double($0.box.width) }.sorted()
        if let typical = widths.isEmpty ? nil : widths[widths.count / 2] {
            guard widths.allSatisfy({ $0 >= configuration.regularMinimumWidth * typical && $0 <= configuration.regularMaximumWidth * typical })
            else { return false }
        }
        return true
    }

    // MARK: - Cells

    /// Components stacked above one another with touching or overlapping columns belong to one character:
    /// an LCD draws each segment apart, so a digit arrives as up to seven pieces whose columns barely meet
    /// (the top bar spans the columns of both vertical strokes). Pieces side by side at the same height do
    /// not join: those are the strokes of two neighbouring characters.
    static func groupByColumns(_ components: [Component], height: Int, _ configuration: Configuration.Cells) -> [PixelRect] {
        let boxes = components.map(\.box).sorted { $0.minX < $1.minX }
        var parent = Array(boxes.indices)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for i in boxes.indices {
            for j in (i + 1)..<boxes.count {
                let a = boxes[i], b = boxes[j]
                if b.minX > a.maxX + 1 { break }
                let columns = min(a.maxX, b.maxX) - max(a.minX, b.minX)
                let rows = min(a.maxY, b.maxY) - max(a.minY, b.minY)
                let narrower = min(a.width, b.width)
                // Sharing most of the narrower one's columns, and not far apart: parts of one character.
                let shareColumns = Double(columns) >= configuration.sharedColumns * Double(narrower)
                    && Double(-rows) <= configuration.maximumVerticalGap * Double(height)
                // Stacked, close above each other, with columns meeting or overlapping: segments of one digit.
                // (A `1` beside a digit stands level with it, not above it; a label above the digits and an
                // icon below them are too far apart.)
                let stacked = columns >= -1 && Double(rows) <= configuration.stackedRowOverlap * Double(min(a.height, b.height))
                    && Double(-rows) <= configuration.maximumVerticalGap * Double(height)
                // A short bar meeting a stroke at its corner (the top bar of an LED 7): side by side for a few
                // rows, but the bar is much shorter than the stroke.
                let corner = columns >= -1 && columns <= 2 && rows >= 0
                    && Double(min(a.height, b.height)) <= configuration.cornerBarHeight * Double(max(a.height, b.height))
                    && Double(min(a.width, b.width)) <= configuration.cornerBarWidth * Double(height)
                guard shareColumns || stacked || corner else { continue }
                parent[find(j)] = find(i)
            }
        }
        var groups: [Int: PixelRect] = [:]
        for i in boxes.indices { groups[find(i)] = groups[find(i)].map { $0.union(boxes[i]) } ?? boxes[i] }
        return groups.values.sorted { $0.minX < $1.minX }
    }

    /// A digit touching the frame of the display window joins the frame's line into its cell, which then
    /// reaches far above or below the digits. When the columns that reach out are a thin run at one side of
    /// the cell, they are the frame: cut them off and keep the digit.
    func detachingFrame(_ cell: PixelRect, top: Int, height: Int) -> PixelRect {
        let Hd = Double(height)
        let cells = configuration.cells
        let low = top - Int(cells.rowsAbove * Hd), high = top + Int(cells.rowsBelow * Hd)
        guard cell.minY < low || cell.maxY > high, Double(cell.width) >= cells.frameCutMinimumWidth * Hd else { return cell }
        // A column reaches out when its ink runs on unbroken across the top or bottom edge of the band, from
        // inside it to well beyond (what merely lies beyond, such as the next line's digits, does not count).
        func crosses(_ x: Int, from: Int, to: Int) -> Bool {
            let lo = max(0, min(from, to)), hi = min(mask.height - 1, max(from, to))
            guard lo < hi else { return false }
            // A pixel of slack either side: a frame seen in perspective drifts sideways.
            for y in lo...hi {
                guard (max(0, x - 1)...min(mask.width - 1, x + 1)).contains(where: { mask[$0, y] }) else { return false }
            }
            return true
        }
        func reachesOut(_ x: Int) -> Bool {
            crosses(x, from: top + Int(cells.frameCrossingFromBelow * Hd), to: top + Int(cells.frameCrossingToBelow * Hd))
                || crosses(x, from: top + Int(cells.frameCrossingFromAbove * Hd), to: top - Int(cells.frameCrossingToAbove * Hd))
        }
        let outer = (cell.minX..<cell.maxX).filter(reachesOut)
        guard let first = outer.first, let last = outer.last, last - first + 1 == outer.count,
            Double(outer.count) <= cells.frameMaximumShare * Double(cell.width)
        else { return cell }
        let rows = PixelRect(x: 0, y: max(low, 0), width: mask.width, height: high - max(low, 0))
        // (Within a couple of columns of the side: the frame drifts, and the cell may hold a pixel of it more.)
        if first <= cell.minX + 2 {
            return tightened(PixelRect(x: last + 2, y: cell.minY, width: cell.maxX - last - 2, height: cell.height).intersection(rows))
        }
        if last >= cell.maxX - 3 {
            return tightened(PixelRect(x: cell.minX, y: cell.minY, width: first - 1 - cell.minX, height: cell.height).intersection(rows))
        }
        return cell
    }

    /// A `1` touching the digit beside it at a corner (the top of a 3, the foot of a 7) makes one wide cell.
    /// Split it where a column holds only a little ink near the top or bottom, when one side is a thin
    /// full-height stroke. The middle is left alone: the bar of an `H` joins its two sides there, and an `H`
    /// read as two `1`s would turn `HI` into a number.
    func splitOffTouchingOne(_ cell: PixelRect, height: Int) -> [PixelRect] {
        let Hd = Double(height)
        let cells = configuration.cells
        guard Double(cell.width) >= cells.splitMinimumWidth * Hd, Double(cell.height) >= cells.fullHeight * Hd else { return [cell] }
        let maxBridge = max(2, Int(cells.bridgeMaximum * Hd))
        let narrow = Int(cells.splitOneMaximumWidth * Hd)
        func column(_ x: Int) -> (count: Int, rows: ClosedRange<Int>?) {
            var n = 0, lo = Int.max, hi = Int.min
            for y in cell.minY..<cell.maxY where mask[x, y] { n += 1; lo = min(lo, y); hi = max(hi, y) }
            return (n, n > 0 ? lo...hi : nil)
        }
        func tallestStroke(_ x0: Int, _ x1: Int) -> Int {
            var best = 0
            for x in x0..<x1 { best = max(best, column(x).count) }
            return best
        }
        let edgeBand = Int(cells.bridgeEdgeShare * Double(cell.height))
        for x in [Int](cell.minX + 2..<max(cell.minX + 2, cell.maxX - 2)) {
            let (count, rows) = column(x)
            guard count <= maxBridge else { continue }
            if let rows, rows.lowerBound > cell.minY + edgeBand && rows.upperBound < cell.maxY - 1 - edgeBand { continue }
            let leftWidth = x - cell.minX, rightWidth = cell.maxX - x - 1
            let oneOnLeft = leftWidth <= narrow && Double(tallestStroke(cell.minX, x)) >= cells.splitOneMinimumStroke * Hd
                && Double(rightWidth) >= cells.splitOtherMinimumWidth * Hd
            let oneOnRight = rightWidth <= narrow && Double(tallestStroke(x + 1, cell.maxX)) >= cells.splitOneMinimumStroke * Hd
                && Double(leftWidth) >= cells.splitOtherMinimumWidth * Hd
            guard oneOnLeft || oneOnRight else { continue }
            let left = tightened(PixelRect(x: cell.minX, y: cell.minY, width: leftWidth, height: cell.height))
            let right = tightened(PixelRect(x: x + 1, y: cell.minY, width: rightWidth, height: cell.height))
            // The other side must be a whole character too, not the flag and bar of a 7 beside its stroke.
            guard Double(min(left.height, right.height)) >= cells.fullHeight * Hd else { continue }
            return [left, right]
        }
        return [cell]
    }

    /// The bounding box of the ink inside `rect`.
    func tightened(_ rect: PixelRect) -> PixelRect {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for y in rect.minY..<rect.maxY {
            for x in rect.minX..<rect.maxX where mask[x, y] {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x0 <= x1 else { return rect }
        return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    /// Median horizontal run length of ink across the upper and lower halves of the cells: the stroke width.
    static func strokeWidth(_ mask: InkMask, cells: [PixelRect], top: Int, height: Int, _ configuration: Configuration.Cells) -> Int {
        var runs: [Int] = []
        for cell in cells where Double(cell.height) >= configuration.fullHeight * Double(height) {
            for y in [cell.minY + cell.height / 4, cell.minY + 3 * cell.height / 4] {
                var x = cell.minX
                while x < cell.maxX {
                    if !mask[x, y] { x += 1; continue }
                    let start = x
                    while x < cell.maxX && mask[x, y] { x += 1 }
                    runs.append(x - start)
                }
            }
        }
        let fallback = max(2, height / configuration.strokeFallbackDivisor)
        guard !runs.isEmpty else { return fallback }
        runs.sort()
        return min(max(runs[runs.count / 2], max(2, height / configuration.strokeMinimumDivisor)), height / configuration.strokeMaximumDivisor)
    }

    /// How dark the lit strokes in `region` are: a percentile of the darkness of its ink pixels.
    func litLevel(in region: PixelRect, fraction: Double) -> Double {
        let band = region.intersection(PixelRect(x: 0, y: 0, width: mask.width, height: mask.height))
        var histogram = [Int](repeating: 0, count: 256)
        var n = 0
        let darkness = separator.darkness
        for y in band.minY..<band.maxY {
            for x in band.minX..<band.maxX where mask[x, y] {
                histogram[Int(darkness[x, y])] += 1
                n += 1
            }
        }
        guard n > 0 else { return 255 }
        var seen = 0
        for v in 0..<256 {
            seen += histogram[v]
            if Double(seen) >= Double(n) * fraction { return Double(max(v, 1)) }
        }
        return 255
    }

    // MARK: - Characters

    mutating func classify(
        _ cell: PixelRect, typicalWidth: Double, stroke: Int, lit: Double, top: Int, height: Int
    ) -> RecognizedCharacter? {
        let shape = configuration.segments, cells = configuration.cells
        let Hd = Double(height)
        let h = Double(cell.height), w = Double(cell.width)
        let mid = Double(top) + Hd / 2
        if h >= shape.characterHeight * Hd {
            // Taller than the band allows, or part of a line running on beyond it: a bezel edge or a shadow,
            // not a character.
            // (Only thin cells are tested for running on: a wide digit may sit right against the frame.)
            if Double(cell.minY) < Double(top) - cells.rowsAbove * Hd || Double(cell.maxY) > Double(top) + cells.rowsBelow * Hd
                || (w < shape.runOnTestMaximumWidth * Hd && continuesBeyond(cell, height: height))
            {
                return RecognizedCharacter(character: "?", confidence: 0, segments: [], box: cell, isAligned: false)
            }
            if w < shape.narrowShareOfTypical * typicalWidth || w <= shape.narrowStrokes * Double(stroke) || w < shape.narrowWidth * Hd {
                return classifyNarrow(cell, lit: lit, stroke: stroke)
            }
            // A seven-segment character is clearly taller than wide; a cell about as wide as the digits are
            // tall is something else (the gaps around a digit seen with the wrong polarity, a logo, two
            // characters run together).
            if w > shape.maximumWidth * Hd {
                return RecognizedCharacter(character: "?", confidence: 0, segments: [], box: cell)
            }
            return classifySegments(in: cell, stroke: stroke, lit: lit)
        }
        // A minus sign: a short, flat bar around the middle.
        if h <= shape.minusMaximumHeight * Hd && w >= shape.minusMinimumWidth * Hd
            && abs(cell.midY - mid) <= shape.minusMaximumOffset * Hd
        {
            let score = darknessScore(cell, horizontal: true)
            return RecognizedCharacter(character: "-", confidence: confidence(score / lit, on: true), segments: .g, box: cell)
        }
        // Lower-case letters (`r`, `o`) fill the lower half only.
        if h >= shape.lowerCaseMinimumHeight * Hd && h < shape.characterHeight * Hd
            && Double(cell.minY) >= mid - shape.lowerCaseHighestTop * Hd && w >= shape.lowerCaseMinimumWidth * Hd
        {
            let full = PixelRect(x: cell.minX, y: cell.maxY - height, width: cell.width, height: height)
            return classifySegments(in: full, stroke: stroke, lit: lit, lowerHalfOnly: true)
        }
        return nil  // too small to be a character: noise, a unit label, an icon
    }

    /// Re-reads unreadable characters in the cell where a display of this pitch must have drawn them.
    ///
    /// A character's box comes from its ink, and ink goes wrong: a glare streak or the window frame widens
    /// it, a broken segment narrows it, and the probes then miss the segments. Displays draw digits in cells
    /// of one width at one pitch, learnt here from the clearly read digits; an unreadable character is tried
    /// again in the cell ending at its own right edge, starting at its left edge, and one pitch from each
    /// neighbour, and takes the clearest reading.
    mutating func rereadOnPitch(_ characters: [RecognizedCharacter], stroke: Int, lineLit: Double, height: Int)
        -> [RecognizedCharacter]
    {
        let Hd = Double(height)
        let pitchRules = configuration.pitch
        let clearDigits = characters.filter {
            SegmentAlphabet.isDigit($0.character) && $0.character != "1" && $0.confidence >= pitchRules.clearConfidence
                && Double($0.box.width) >= pitchRules.clearDigitMinimumWidth * Hd
        }
        guard clearDigits.count >= 1 else { return characters }
        let widths = clearDigits.map(\.box.width).sorted()
        let width = widths[widths.count / 2]
        let tops = clearDigits.map(\.box.minY).sorted(), bottoms = clearDigits.map(\.box.maxY).sorted()
        let top = tops[tops.count / 2], bottom = bottoms[bottoms.count / 2]
        let clearGlyphs = characters.filter {
            $0.character != "?" && $0.confidence >= pitchRules.clearConfidence && $0.character != "-"
        }
        let steps = zip(clearGlyphs.dropFirst(), clearGlyphs).map { $0.box.maxX - $1.box.maxX }
            .filter { Double($0) >= pitchRules.minimumStep * Double(width) && Double($0) <= pitchRules.maximumStep * Double(width) }.sorted()
        let pitch: Int? = steps.isEmpty ? nil : steps[steps.count / 2]

        var out = characters
        for i in out.indices where out[i].character == "?" && out[i].isAligned {
            let c = out[i]
            var rights = [c.box.maxX, c.box.minX + width]
            if let pitch {
                if i > 0, out[i - 1].character != "?" { rights.append(out[i - 1].box.maxX + pitch) }
                if i + 1 < out.count, out[i + 1].character != "?" { rights.append(out[i + 1].box.maxX - pitch) }
            }
            var best: RecognizedCharacter? = nil
            for right in rights {
                let box = PixelRect(x: right - width, y: top, width: width, height: bottom - top)
                guard box.minX >= 0, box.maxX <= mask.width else { continue }
                let lit = max(litLevel(in: box, fraction: configuration.ink.cellLitPercentile), configuration.ink.cellLitFloor * lineLit)
                let candidate = classifySegments(in: box, stroke: stroke, lit: lit)
                guard candidate.character != "?", candidate.confidence >= pitchRules.clearConfidence else { continue }
                if candidate.confidence > (best?.confidence ?? 0) { best = candidate }
            }
            if let best {
                logger.trace("     re-read \(c.box) on the pitch as \(best.character) \(best.box)")
                out[i] = best
            }
        }
        return out
    }

    /// Whether ink continues on from the cell's top or bottom for a good part of a digit height (small breaks
    /// allowed, following a slanted line sideways): then the cell is a piece of a longer line, such as the
    /// frame of the display window, not a character.
    func continuesBeyond(_ cell: PixelRect, height: Int) -> Bool {
        let reach = max(3, Int(configuration.cells.runOnLength * Double(height)))
        for direction in [-1, 1] {
            var x0 = max(0, cell.minX - 2), x1 = min(mask.width, cell.maxX + 2)
            var y = direction < 0 ? cell.minY - 1 : cell.maxY
            var found = 0, misses = 0
            while y >= 0 && y < mask.height && misses <= 2 && found < reach {
                var lo = Int.max, hi = Int.min
                for x in x0..<x1 where mask[x, y] { lo = min(lo, x); hi = max(hi, x) }
                if lo <= hi {
                    found += 1
                    misses = 0
                    // Follow the ink: a frame seen in perspective drifts sideways.
                    x0 = max(0, lo - 2)
                    x1 = min(mask.width, hi + 3)
                } else {
                    misses += 1
                }
                y += direction
            }
            // Running off the image with ink all the way counts too: the margins are only a third of a digit.
            let ranOff = y < 0 || y >= mask.height
            if found >= reach || (ranOff && misses == 0 && found >= 3) { return true }
        }
        return false
    }

    /// Drops the frame of the display window where the line runs into it. The frame is a thin dark line (read
    /// as a `1` or as nothing) with the display's even background on one side and something else (the
    /// plastic of the body, the bezel) on the other. A cell as wide as a digit is never taken for a frame,
    /// even unreadable: it may be a digit washed out at the edge of the window.
    func withoutWindowFrame(_ characters: [RecognizedCharacter], band: PixelRect, stroke: Int)
        -> (characters: [RecognizedCharacter], doubtful: Bool)
    {
        let frame = configuration.windowFrame
        let Hd = Double(band.height)
        let wideHeights = characters.filter {
            $0.character != "1" && $0.character != "?" && Double($0.box.width) > frame.wideCharacterWidth * Hd
        }.map(\.box.height).sorted()
        let digitHeight = wideHeights.isEmpty ? band.height : wideHeights[wideHeights.count / 2]
        let background = separator.background
        let percentile = configuration.ink.backgroundPercentile
        func level(_ x0: Int, _ x1: Int) -> Double? {
            let r = PixelRect(x: x0, y: band.minY, width: x1 - x0, height: band.height).intersection(background.bounds)
            guard r.width >= 2 else { return nil }
            return Double(Histogram(background, in: r).percentile(percentile))
        }
        // Strips right beside the cell: a `1` near the window edge still has display background there.
        let side = max(2, band.height / frame.sideStripDivisor), gap = 1
        var doubtful = false
        let kept = characters.filter { c in
            guard c.character == "?" || c.character == "1", Double(c.box.width) <= frame.maximumWidth * Hd else { return true }
            guard let left = level(c.box.minX - gap - side, c.box.minX - gap),
                let right = level(c.box.maxX + gap, c.box.maxX + gap + side)
            else { return true }
            let step = abs(left - right) / max(1, max(left, right))
            guard step >= frame.minimumStep else { return true }
            guard c.character == "1" else { return false }
            // A `1` with a stroke like the digits' may be a real one beside the frame (the last digit of
            // 121): kept. Thinner, it is the frame. Merely shorter than the digits, it cannot be told apart:
            // dropped, but the reading is doubtful (a 1 lost in front of 50 would make it 150).
            if Double(c.box.width) < frame.oneMinimumStroke * Double(stroke) { return false }
            if Double(c.box.height) < frame.oneMinimumHeight * Double(digitHeight) { doubtful = true; return false }
            return true
        }
        return (kept, doubtful)
    }

    /// A thin full-height bar: a `1` when it runs dark through both halves.
    mutating func classifyNarrow(_ cell: PixelRect, lit: Double, stroke: Int) -> RecognizedCharacter {
        let shape = configuration.segments
        // A `1` is a bar of even width down most of the cell (its two segments part only at the waist); a
        // stack of small icons (a battery above a drop) is not.
        var inkRows = 0, widest = 0
        for y in cell.minY..<cell.maxY {
            var width = 0
            for x in cell.minX..<cell.maxX where mask[x, y] { width += 1 }
            if width > 0 { inkRows += 1 }
            widest = max(widest, width)
        }
        guard Double(inkRows) >= shape.oneInkRows * Double(cell.height), Double(widest) <= shape.oneMaximumWidth * Double(max(stroke, 2)) else {
            return RecognizedCharacter(character: "?", confidence: 0, segments: [], box: cell)
        }
        // Nor does a `1` have a bar sticking out to the left at its top, in its cell or just beside it: that
        // is a 7 whose top bar is short or came apart, and reading it as a 1 would change the number.
        var lefts: [Int] = []
        for y in (cell.minY + cell.height / 3)..<(cell.maxY - cell.height / 3) {
            if let x = (cell.minX..<cell.maxX).first(where: { mask[$0, y] }) { lefts.append(x) }
        }
        if !lefts.isEmpty {
            let strokeLeft = lefts.sorted()[lefts.count / 2]
            let reach = max(0, cell.minX - shape.sevenFlagReachStrokes * max(stroke, 2))
            for y in cell.minY..<(cell.minY + max(2, cell.height / shape.sevenFlagRowsDivisor)) {
                if let x = (reach..<cell.maxX).first(where: { mask[$0, y] }), x < strokeLeft - 2 {
                    return RecognizedCharacter(character: "?", confidence: 0, segments: [], box: cell)
                }
            }
        }
        let half = cell.height / 2
        let upper = PixelRect(x: cell.minX, y: cell.minY, width: cell.width, height: half)
        let lower = PixelRect(x: cell.minX, y: cell.minY + half, width: cell.width, height: cell.height - half)
        let up = darknessScore(upper, horizontal: false) / lit, low = darknessScore(lower, horizontal: false) / lit
        let bothOn = up >= shape.onRatio && low >= shape.onRatio
        let conf = bothOn ? min(confidence(up, on: true), confidence(low, on: true)) : 0
        return RecognizedCharacter(character: bothOn ? "1" : "?", confidence: conf, segments: [.b, .c], box: cell)
    }

    /// Probes the seven segment positions of a character cell.
    mutating func classifySegments(in cell: PixelRect, stroke: Int, lit: Double, lowerHalfOnly: Bool = false) -> RecognizedCharacter {
        let shape = configuration.segments
        let x0 = cell.minX, x1 = cell.maxX, y0 = cell.minY, y1 = cell.maxY
        let w = cell.width, h = cell.height
        let t = max(1, min(stroke, w / 3))
        let midY = y0 + h / 2
        let clip = PixelRect(x: 0, y: 0, width: mask.width, height: mask.height)
        // Horizontal segments are probed over the middle half of the cell's width, vertical ones over the
        // middle of each half's height, each across a stroke's thickness.
        // (The middle 40%: in a narrow cell the ends of the vertical strokes would otherwise pass for a bar.)
        let inset = (shape.probeInsetTenths * w) / 10
        let hx0 = x0 + inset, hw = max(1, w - 2 * inset)
        let vLen = max(1, h / 2 - 2 * t)
        let probes: [(SegmentSet, PixelRect, Bool)] = [
            (.a, PixelRect(x: hx0, y: y0, width: hw, height: t + 1), true),
            (.g, PixelRect(x: hx0, y: midY - t, width: hw, height: 2 * t), true),
            (.d, PixelRect(x: hx0, y: y1 - t - 1, width: hw, height: t + 1), true),
            (.f, PixelRect(x: x0, y: y0 + t, width: t + 1, height: vLen), false),
            (.b, PixelRect(x: x1 - t - 1, y: y0 + t, width: t + 1, height: vLen), false),
            (.e, PixelRect(x: x0, y: midY + t, width: t + 1, height: vLen), false),
            (.c, PixelRect(x: x1 - t - 1, y: midY + t, width: t + 1, height: vLen), false),
        ]
        var measured: [(SegmentSet, Double)] = []
        for (segment, rect, horizontal) in probes {
            if lowerHalfOnly && (segment == .a || segment == .b || segment == .f) { continue }
            let r = rect.intersection(clip)
            measured.append((segment, r.isEmpty ? 0 : darknessScore(r, horizontal: horizontal) / lit))
        }
        // Where lit and unlit segments part: at the widest gap between the sorted darknesses, kept between
        // `lowestSplit` and `onRatio` of the lit level. A washed-out digit still splits cleanly from its empty
        // positions, and ghost segments fall below a clearly lit one; with no clear gap (an 8, all lit) the
        // middle decides.
        let sorted = measured.map(\.1).sorted()
        var widest: Double = 0, split = shape.onRatio
        for (low, high) in zip(sorted, sorted.dropFirst()) where high - low > widest {
            widest = high - low
            split = (low + high) / 2
        }
        let threshold = widest >= shape.minimumSplitGap ? min(max(split, shape.lowestSplit), shape.onRatio) : shape.onRatio
        var litSegments: SegmentSet = []
        var conf: Double = 1
        for (segment, ratio) in measured {
            let on = ratio >= threshold
            if on { litSegments.insert(segment) }
            conf = min(conf, min(1, abs(ratio - threshold) / shape.clearMargin))
        }
        logger.trace("""
            cell \(cell) lit \(Int(lit)) split \(Int(threshold * 100)): \
            \(measured.map { "\($0.0)=\(Int($0.1 * 100))" }.joined(separator: " "))
            """)
        // Seven-segment characters have empty counters between their segments; letters of printed text,
        // textures and shadows do not. Ink there means this is not a display character at all.
        let holes = [
            PixelRect(x: x0 + t + 1, y: y0 + t + 1, width: w - 2 * t - 2, height: midY - y0 - t - t / 2 - 2),
            PixelRect(x: x0 + t + 1, y: midY + t / 2 + 1, width: w - 2 * t - 2, height: y1 - midY - t - t / 2 - 2),
        ]
        for hole in holes where !lowerHalfOnly || hole.minY > midY {
            let r = hole.intersection(clip)
            guard r.width >= 2, r.height >= 2 else { continue }
            if Double(mask.inkCount(in: r)) > shape.counterInkShare * Double(r.area) {
                // Not a digit at all, not even a damaged one (an icon, a logo): nothing a number could be
                // missing, so it does not make the number beside it doubtful either.
                var c = RecognizedCharacter(character: "?", confidence: 0, segments: litSegments, box: cell)
                c.couldBeDigit = false
                return c
            }
        }
        let character = SegmentAlphabet.character(for: litSegments) ?? "?"
        var result = RecognizedCharacter(
            character: character, confidence: character == "?" ? 0 : conf, segments: litSegments, box: cell)
        // A wide cell with nothing but a bar at its top or foot is a mark or an icon, not a damaged digit.
        if character == "?" && (litSegments.isEmpty || litSegments == .a || litSegments == .d) { result.couldBeDigit = false }
        return result
    }

    /// How dark a stroke through `rect` is: at each step along it (columns for a horizontal stroke, rows for a
    /// vertical one) the darkest pixel across it, and of those the level that 60% of the steps reach (with the
    /// default `darknessRankTenths`). A lit segment is dark along most of its length, even if slightly slanted
    /// or offset within the probe.
    mutating func darknessScore(_ rect: PixelRect, horizontal: Bool) -> Double {
        along.removeAll(keepingCapacity: true)
        let darkness = separator.darkness
        if horizontal {
            for x in rect.minX..<rect.maxX {
                var m: UInt8 = 0
                for y in rect.minY..<rect.maxY { m = max(m, darkness[x, y]) }
                along.append(Int(m))
            }
        } else {
            for y in rect.minY..<rect.maxY {
                var m: UInt8 = 0
                for x in rect.minX..<rect.maxX { m = max(m, darkness[x, y]) }
                along.append(Int(m))
            }
        }
        guard !along.isEmpty else { return 0 }
        along.sort()
        return Double(along[along.count * configuration.segments.darknessRankTenths / 10])
    }

    func confidence(_ ratio: Double, on: Bool) -> Double {
        let onRatio = configuration.segments.onRatio
        let distance = on ? ratio - onRatio : onRatio - ratio
        return min(1, max(0, distance / configuration.segments.clearMargin))
    }

    // MARK: - The number

    /// Keeps the characters from the first to the last one that overlaps a detected candidate, and extends
    /// that run by characters standing where the next digit cell would be (a leading `1` or minus, a trailing
    /// digit that was not a candidate). Displays space digits at a fixed pitch, and a `1` sits at the right of
    /// its cell, so positions are judged by right edges. Reports an unreadable character at such a position:
    /// it may be a digit of the number (a `1` lost at the front turns 147 into 47).
    static func trimToCandidates(
        _ chars: [RecognizedCharacter], spans: [ClosedRange<Int>], typicalWidth: Double, configuration: Configuration = .init()
    ) -> (characters: [RecognizedCharacter], unclearNeighbour: Bool) {
        let number = configuration.number
        let isClear: (RecognizedCharacter) -> Bool = { $0.character != "?" && $0.isAligned && $0.confidence > number.clearConfidence }
        let first: Int, last: Int
        if spans.isEmpty {
            // No candidates to go by (a line from a row profile): the core is the longest run of clear
            // characters without a gap wider than a character between them.
            let isClearCharacter: (RecognizedCharacter) -> Bool = { isClear($0) && $0.character != "-" }
            guard let run = longestClearRun(chars, typicalWidth: typicalWidth, maximumGap: number.runMaximumGap, isClear: isClearCharacter)
            else {
                return (chars, false)
            }
            (first, last) = (run.lowerBound, run.upperBound)
        } else {
            let overlaps: (RecognizedCharacter) -> Bool = { c in
                spans.contains { $0.overlaps(c.box.minX...max(c.box.minX, c.box.maxX - 1)) }
            }
            guard let f = chars.firstIndex(where: overlaps), let l = chars.lastIndex(where: overlaps) else {
                return (chars, false)
            }
            (first, last) = (f, l)
        }
        let core = chars[first...last].filter { $0.character != "-" }
        let steps = zip(core.dropFirst(), core).map { Double($0.box.maxX - $1.box.maxX) }.sorted()
        let pitch = steps.isEmpty
            ? configuration.pitch.fallbackPitch * typicalWidth : max(steps[steps.count / 2], number.minimumPitch * typicalWidth)
        // A minus sign only ever leads a number, and may sit closer than a full cell.
        let atNextCell: (RecognizedCharacter, Double, Bool) -> Bool = { c, expectedRight, leading in
            if c.character == "-" { return leading && abs(Double(c.box.maxX) - expectedRight) <= number.minusOffset * pitch }
            return abs(Double(c.box.maxX) - expectedRight) <= number.cellOffset * pitch
        }
        var lo = first, hi = last
        var unclear = false
        // Something of character size right beside the number that was not taken into it (unreadable, or
        // readable but off the pitch), within about a cell and a half, may be one of its digits.
        // Also a cell running down from the digits' top to below their feet, close by: a digit merged with a
        // label under it (a trailing 9 joined to "kWh") is not aligned, yet still a digit of the number.
        let suspicious: (RecognizedCharacter, Int, RecognizedCharacter) -> Bool = { c, gap, neighbour in
            if c.isAligned { return c.couldBeDigit && c.character != "-" && Double(gap) <= number.suspiciousGap * pitch }
            let h = Double(neighbour.box.height)
            // A bar as tall as the digits right beside them, though not quite in line: a 1 (a lost leading 1
            // turns 124 into 24).
            let rows = min(c.box.maxY, neighbour.box.maxY) - max(c.box.minY, neighbour.box.minY)
            if Double(c.box.width) <= number.barMaximumWidth * typicalWidth && Double(rows) >= number.barMinimumRows * h
                && Double(gap) <= number.barMaximumGap * pitch
            {
                return true
            }
            return abs(Double(c.box.minY - neighbour.box.minY)) <= number.mergedTopOffset * h
                && Double(c.box.height) >= number.mergedMinimumHeight * h
                && Double(c.box.width) >= number.mergedMinimumWidth * typicalWidth && Double(gap) <= number.mergedMaximumGap * pitch
        }
        while lo > 0 {
            let c = chars[lo - 1]
            guard atNextCell(c, Double(chars[lo].box.maxX) - pitch, true), isClear(c) else {
                unclear = unclear || suspicious(c, chars[lo].box.minX - c.box.maxX, chars[lo])
                break
            }
            lo -= 1
        }
        while hi < chars.count - 1 {
            let c = chars[hi + 1]
            guard atNextCell(c, Double(chars[hi].box.maxX) + pitch, false), isClear(c) else {
                unclear = unclear || suspicious(c, c.box.minX - chars[hi].box.maxX, chars[hi])
                break
            }
            hi += 1
        }
        return (Array(chars[lo...hi]), unclear)
    }

    /// The longest run of clear characters with gaps of at most `maximumGap` typical widths between them.
    static func longestClearRun(
        _ chars: [RecognizedCharacter], typicalWidth: Double, maximumGap: Double, isClear: (RecognizedCharacter) -> Bool
    ) -> ClosedRange<Int>? {
        var best: ClosedRange<Int>? = nil
        var start: Int? = nil
        for i in chars.indices {
            let continues = start != nil && isClear(chars[i])
                && Double(chars[i].box.minX - chars[i - 1].box.maxX) <= maximumGap * typicalWidth
            if continues { continue }
            if let s = start, best == nil || i - 1 - s > best!.count - 1 { best = s...(i - 1) }
            start = isClear(chars[i]) ? i : nil
        }
        if let s = start, best == nil || chars.count - 1 - s > best!.count - 1 { best = s...(chars.count - 1) }
        return best
    }

    /// Whether a piece of ink is a dot: small, squarish, sitting on the baseline (`bottom`). `height`: the digit
    /// height.
    func isDot(_ c: Component, bottom: Int, height Hd: Double) -> Bool {
        let points = configuration.points
        let w = Double(c.box.width), h = Double(c.box.height)
        return h <= points.maximumHeight * Hd && w <= points.maximumWidth * Hd && w >= points.minimumWidth * Hd
            && w / h >= points.minimumAspect && w / h <= points.maximumAspect
            && Double(c.box.maxY) >= Double(bottom) - points.baselineAbove * Hd
            && Double(c.box.maxY) <= Double(bottom) + points.baselineBelow * Hd
            && c.fill >= points.minimumFill
    }

    /// Decimal points: a dot about a stroke wide on the baseline between two digits, either standing free or
    /// touching the foot of a digit beside it (common on pumps and thermometers). A dot is not a broken-off
    /// piece of a digit: above it there is no ink.
    func insertingDecimalPoints(into characters: [RecognizedCharacter], dots: [Component], stroke: Int, bottom: Int)
        -> [RecognizedCharacter]
    {
        let points = configuration.points
        let t = max(2, stroke)
        // The digits' own baseline: the band can be a little taller than they are.
        let feet = characters.filter { SegmentAlphabet.isDigit($0.character) }.map(\.box.maxY).sorted()
        let bottom = feet.isEmpty ? bottom : feet[feet.count / 2]
        var out: [RecognizedCharacter] = []
        for (i, c) in characters.enumerated() {
            out.append(c)
            guard SegmentAlphabet.isDigit(c.character), i + 1 < characters.count,
                SegmentAlphabet.isDigit(characters[i + 1].character)
            else { continue }
            let next = characters[i + 1]
            let free = dots.first { d in
                let side = max(d.box.width, d.box.height)
                // Printed about a stroke wide: a speck of a pixel or two (binarized noise) is no point.
                return side >= max(points.minimumSide, (points.minimumSideTenths * t) / 10)
                    && side <= (points.maximumWidthTenths * t) / 10
                    && d.area >= max(points.minimumArea, (t * t) / points.minimumAreaDivisor)
                    && d.box.minX >= c.box.maxX - t && d.box.maxX <= next.box.minX + t
                    && !characters.contains {
                        Double(min($0.box.maxX, d.box.maxX) - max($0.box.minX, d.box.minX))
                            > points.maximumCharacterOverlap * Double(d.box.width)
                    }
                    // Nothing right above it: the broken-off tip of a stroke has its stroke there.
                    && mask.inkCount(in: PixelRect(x: d.box.minX, y: d.box.minY - 2 * t, width: d.box.width, height: 2 * t - 1)) == 0
            }
            if let dot = free?.box ?? attachedDot(after: c.box, before: next.box, stroke: t, bottom: bottom) {
                out.append(RecognizedCharacter(character: ".", confidence: 1, segments: [], box: dot))
            }
        }
        return out
    }

    /// A dot fused to the foot of the digit before (right of its lower-right stroke) or after (left of its
    /// lower-left stroke): ink in the bottom stroke's rows that sticks out sideways, with nothing above it.
    func attachedDot(after left: PixelRect, before right: PixelRect, stroke t: Int, bottom: Int) -> PixelRect? {
        let points = configuration.points
        // Row ranges built with `span` never run backwards, whatever the boxes look like.
        func span(_ a: Int, _ b: Int) -> Range<Int> { a..<max(a, b) }
        let rows = span(bottom - t - 1, min(mask.height, bottom + 1))
        let clearRows = span(bottom - 3 * t, bottom - t - 1)
        func columnHasInk(_ x: Int, _ r: Range<Int>) -> Bool {
            guard x >= 0, x < mask.width else { return false }
            for y in r where y >= 0 && y < mask.height && mask[x, y] { return true }
            return false
        }
        // Leftmost ink of the right digit above its foot, and rightmost of the left digit.
        var rightBody = right.maxX, leftBody = left.minX
        for x in right.minX..<right.maxX where columnHasInk(x, span(right.minY, bottom - t - 1)) { rightBody = x; break }
        for x in stride(from: left.maxX - 1, through: left.minX, by: -1) where columnHasInk(x, span(left.minY, bottom - t - 1)) {
            leftBody = x
            break
        }
        // Columns between the two bodies with ink on the baseline and none above: the dot.
        var x0 = Int.max, x1 = Int.min
        for x in (leftBody + 1)..<max(leftBody + 1, rightBody) where columnHasInk(x, rows) && !columnHasInk(x, clearRows) {
            x0 = min(x0, x)
            x1 = max(x1, x)
        }
        guard x0 <= x1 else { return nil }
        let width = x1 - x0 + 1
        // At least most of a stroke wide: the foot of a stroke still slanted a little sticks out only a pixel
        // or two.
        guard width >= (points.fusedMinimumWidthTenths * t) / 10, width <= (points.maximumWidthTenths * t) / 10 else { return nil }
        // Not the bottom bar of a digit running on: the dot must stand apart from the body it touches by
        // being narrower than a digit and sitting in the gap.
        guard x0 > left.maxX - t || x1 < right.minX + t else { return nil }
        // Solid, as printed: scattered specks of noise on the baseline leave most of their box empty.
        var y0 = Int.max, y1 = Int.min
        for y in rows where y >= 0 && y < mask.height {
            for x in x0...x1 where mask[x, y] { y0 = min(y0, y); y1 = max(y1, y); break }
        }
        guard y0 <= y1 else { return nil }
        let ink = PixelRect(x: x0, y: y0, width: width, height: y1 - y0 + 1)
        guard Double(mask.inkCount(in: ink)) >= points.fusedMinimumFill * Double(ink.area) else { return nil }
        return PixelRect(x: x0, y: bottom - t - 1, width: width, height: t + 1)
    }
}
