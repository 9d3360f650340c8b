import VitalSnapImaging

/// Reads the characters of a rectified line: separates ink from background, groups the ink into character
/// cells, and decides for each cell which of the seven segments are lit by probing where each segment must be.
///
/// Segments are judged on how dark they are compared with the line's lit strokes, not on the binary mask: the
/// faint "ghosts" of unlit LCD segments are darker than the background too, and a mask that lets them in would
/// turn every 4 into a 9.
public struct LineRecognizer: Sendable {
    /// A segment is lit when its darkness reaches this share of the line's typical stroke darkness...
    public var onRatio = 0.5
    /// ...and the decision is clear (confidence 1) this far from that level.
    public var clearMargin = 0.3

    public var debug = false
    /// The binarized line of the last `recognize` (for inspection).
    public private(set) var mask = InkMask(width: 0, height: 0)
    private var separator = InkSeparator()
    private var runScratch = InkMask(width: 0, height: 0)
    private var labeler = ConnectedComponents()
    private var along: [Int] = []

    public init() {}

    public struct Result: Sendable {
        public var characters: [RecognizedCharacter]
        /// Gray-level spread between background and ink in the digit band.
        public var contrast: Int
        /// A character may be missing: a digit-sized gap inside the number, or an unreadable character at
        /// the place where the number would continue.
        public var hasGap: Bool
    }

    public mutating func recognize(_ line: RectifiedLine) -> Result {
        let image = line.image
        let H = line.digitHeight, Hd = Double(line.digitHeight)
        let top = line.digitTop, bottom = line.digitBottom
        let band = PixelRect(x: 0, y: top, width: image.width, height: H)
        guard separator.separate(image, strokeRadius: max(3, H / 5), thresholdRegion: band, into: &mask) != nil else {
            return Result(characters: [], contrast: 0, hasGap: false)
        }
        let bandHistogram = Histogram(image, in: band)
        let contrast = bandHistogram.percentile(0.9) - bandHistogram.percentile(0.03)
        // Flat runs longer than a segment are bezel edges or printed lines touching the digits. (Vertical
        // edges are left whole: cut up, their pieces would pass for `1`s; whole, they are too tall to be one.)
        LongRunRemoval(maximumHorizontal: Int(0.95 * Hd), maximumVertical: Int.max, margin: 0)
            .apply(&mask, scratch: &runScratch)
        let components = labeler.label(mask, minimumArea: 2).filter { c in
            // Ink that reaches into the digit band, and is not a frame or shadow taller than the digits, nor a
            // long flat bar that would join the digits it passes over into one cell.
            c.box.maxY > top + H / 10 && c.box.minY < bottom - H / 10 && Double(c.box.height) < 1.35 * Hd
                && !(Double(c.box.width) > 1.0 * Hd && Double(c.box.height) < 0.5 * Hd)
        }
        // Dots: small, squarish, sitting on the baseline. Set aside so they do not merge into a digit.
        let isDot: (Component) -> Bool = { c in
            let w = Double(c.box.width), h = Double(c.box.height)
            return h <= 0.3 * Hd && w <= 0.32 * Hd && w >= 0.06 * Hd && w / h >= 0.4 && w / h <= 2.5
                && Double(c.box.maxY) >= Double(bottom) - 0.22 * Hd && Double(c.box.maxY) <= Double(bottom) + 0.2 * Hd
                && c.fill >= 0.5
        }
        let dots = components.filter(isDot)
        let cells = Self.groupByColumns(components.filter { !isDot($0) })

        // Typical width of a full character, for telling a `1` from a digit and for the pitch.
        let wide = cells.filter { Double($0.height) >= 0.6 * Hd && Double($0.width) >= 0.4 * Hd }.map(\.width).sorted()
        let typicalWidth = wide.isEmpty ? 0.55 * Hd : Double(wide[wide.count / 2])
        let stroke = Self.strokeWidth(mask, cells: cells, top: top, height: H)
        let lit = litLevel(in: band)

        var characters: [RecognizedCharacter] = []
        for cell in cells {
            if let c = classify(cell, typicalWidth: typicalWidth, stroke: stroke, lit: lit, top: top, height: H) {
                characters.append(c)
            }
        }
        if debug {
            print("   cells:", cells.map(\.description), "stroke", stroke, "typical", typicalWidth, "lit", lit)
            print("   chars:", characters.map { "\($0.character)\($0.segments) \($0.box) al=\($0.isAligned)" })
            print("   spans:", line.candidateSpans)
        }
        // Keep only the number around the detected candidates: things beside it (unit labels, icons, bezel
        // edges) were picked up by looking past the candidates and are not part of it.
        let trimmed = Self.trimToCandidates(characters, spans: line.candidateSpans, typicalWidth: typicalWidth)
        characters = Self.insertingDecimalPoints(into: trimmed.characters, dots: dots, stroke: stroke)

        // A missing character: consecutive right edges much further apart than the usual pitch.
        var hasGap = trimmed.unclearNeighbour
        let edges = characters.filter { $0.character != "." }.map { Double($0.box.maxX) }
        if edges.count >= 2 {
            let steps = zip(edges.dropFirst(), edges).map { $0 - $1 }.sorted()
            let pitch = max(steps[steps.count / 2], typicalWidth * 1.05)
            hasGap = hasGap || steps.contains { $0 > 1.75 * pitch }
        }
        return Result(characters: characters, contrast: contrast, hasGap: hasGap)
    }

    // MARK: - Cells

    /// Components whose columns overlap by half the narrower one belong to one character (its segments are
    /// stacked); a `1` that merely touches the digit beside it stays apart.
    static func groupByColumns(_ components: [Component]) -> [PixelRect] {
        let sorted = components.sorted { $0.box.minX < $1.box.minX }
        var groups: [PixelRect] = []
        for c in sorted {
            if let last = groups.last {
                let overlap = min(last.maxX, c.box.maxX) - max(last.minX, c.box.minX)
                if Double(overlap) >= 0.5 * Double(min(last.width, c.box.width)) {
                    groups[groups.count - 1] = last.union(c.box)
                    continue
                }
            }
            groups.append(c.box)
        }
        return groups
    }

    /// Median horizontal run length of ink across the upper and lower halves of the cells: the stroke width.
    static func strokeWidth(_ mask: InkMask, cells: [PixelRect], top: Int, height: Int) -> Int {
        var runs: [Int] = []
        for cell in cells where Double(cell.height) >= 0.6 * Double(height) {
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
        let fallback = max(2, height / 7)
        guard !runs.isEmpty else { return fallback }
        runs.sort()
        return min(max(runs[runs.count / 2], max(2, height / 14)), height / 3)
    }

    /// How dark the line's lit strokes typically are: the median darkness of its ink pixels.
    func litLevel(in band: PixelRect) -> Double {
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
            if seen >= n / 2 { return Double(max(v, 1)) }
        }
        return 255
    }

    // MARK: - Characters

    mutating func classify(
        _ cell: PixelRect, typicalWidth: Double, stroke: Int, lit: Double, top: Int, height: Int
    ) -> RecognizedCharacter? {
        let Hd = Double(height)
        let h = Double(cell.height), w = Double(cell.width)
        let mid = Double(top) + Hd / 2
        if h >= 0.62 * Hd {
            // Taller than the band allows, or part of a line running on beyond it: a bezel edge or a shadow,
            // not a character.
            if Double(cell.minY) < Double(top) - 0.2 * Hd || Double(cell.maxY) > Double(top) + 1.2 * Hd
                || continuesBeyond(cell, height: height)
            {
                return RecognizedCharacter(character: "?", confidence: 0, segments: [], box: cell, isAligned: false)
            }
            if w < 0.42 * typicalWidth || w <= 1.6 * Double(stroke) || w < 0.3 * Hd {
                return classifyNarrow(cell, lit: lit)
            }
            return classifySegments(in: cell, stroke: stroke, lit: lit)
        }
        // A minus sign: a short, flat bar around the middle.
        if h <= 0.3 * Hd && w >= 0.25 * Hd && abs(cell.midY - mid) <= 0.18 * Hd {
            let score = darknessScore(cell, horizontal: true)
            return RecognizedCharacter(character: "-", confidence: confidence(score / lit, on: true), segments: .g, box: cell)
        }
        // Lower-case letters (`r`, `o`) fill the lower half only.
        if h >= 0.35 * Hd && h < 0.62 * Hd && Double(cell.minY) >= mid - 0.15 * Hd && w >= 0.3 * Hd {
            let full = PixelRect(x: cell.minX, y: cell.maxY - height, width: cell.width, height: height)
            return classifySegments(in: full, stroke: stroke, lit: lit, lowerHalfOnly: true)
        }
        return nil  // too small to be a character: noise, a unit label, an icon
    }

    /// Whether ink continues straight on from the cell's top or bottom for a good part of a digit height
    /// (small breaks allowed): then the cell is a piece of a longer line, not a character.
    func continuesBeyond(_ cell: PixelRect, height: Int) -> Bool {
        let reach = max(3, Int(0.3 * Double(height)))
        let x0 = max(0, cell.minX - 1), x1 = min(mask.width, cell.maxX + 1)
        func inkRow(_ y: Int) -> Bool {
            for x in x0..<x1 where mask[x, y] { return true }
            return false
        }
        for direction in [-1, 1] {
            var y = direction < 0 ? cell.minY - 1 : cell.maxY
            var found = 0, misses = 0
            while y >= 0 && y < mask.height && misses <= 2 && found < reach {
                if inkRow(y) { found += 1; misses = 0 } else { misses += 1 }
                y += direction
            }
            if found >= reach { return true }
        }
        return false
    }

    /// A thin full-height bar: a `1` when it runs dark through both halves.
    mutating func classifyNarrow(_ cell: PixelRect, lit: Double) -> RecognizedCharacter {
        let half = cell.height / 2
        let upper = PixelRect(x: cell.minX, y: cell.minY, width: cell.width, height: half)
        let lower = PixelRect(x: cell.minX, y: cell.minY + half, width: cell.width, height: cell.height - half)
        let up = darknessScore(upper, horizontal: false) / lit, low = darknessScore(lower, horizontal: false) / lit
        let bothOn = up >= onRatio && low >= onRatio
        let conf = bothOn ? min(confidence(up, on: true), confidence(low, on: true)) : 0
        return RecognizedCharacter(character: bothOn ? "1" : "?", confidence: conf, segments: [.b, .c], box: cell)
    }

    /// Probes the seven segment positions of a character cell.
    mutating func classifySegments(in cell: PixelRect, stroke: Int, lit: Double, lowerHalfOnly: Bool = false) -> RecognizedCharacter {
        let x0 = cell.minX, x1 = cell.maxX, y0 = cell.minY, y1 = cell.maxY
        let w = cell.width, h = cell.height
        let t = max(1, min(stroke, w / 3))
        let midY = y0 + h / 2
        let clip = PixelRect(x: 0, y: 0, width: mask.width, height: mask.height)
        // Horizontal segments are probed over the middle half of the cell's width, vertical ones over the
        // middle of each half's height, each across a stroke's thickness.
        let hx0 = x0 + w / 4, hw = max(1, w / 2)
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
        var litSegments: SegmentSet = []
        var conf = 1.0
        for (segment, rect, horizontal) in probes {
            if lowerHalfOnly && (segment == .a || segment == .b || segment == .f) { continue }
            let r = rect.intersection(clip)
            let ratio = r.isEmpty ? 0 : darknessScore(r, horizontal: horizontal) / lit
            let on = ratio >= onRatio
            if on { litSegments.insert(segment) }
            conf = min(conf, confidence(ratio, on: on))
        }
        let character = SegmentAlphabet.character(for: litSegments) ?? "?"
        return RecognizedCharacter(
            character: character, confidence: character == "?" ? 0 : conf, segments: litSegments, box: cell)
    }

    /// How dark a stroke through `rect` is: at each step along it (columns for a horizontal stroke, rows for a
    /// vertical one) the darkest pixel across it, and of those the level that 60% of the steps reach. A lit
    /// segment is dark along most of its length, even if slightly slanted or offset within the probe.
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
        return Double(along[along.count * 4 / 10])
    }

    func confidence(_ ratio: Double, on: Bool) -> Double {
        let distance = on ? ratio - onRatio : onRatio - ratio
        return min(1, max(0, distance / clearMargin))
    }

    // MARK: - The number

    /// Keeps the characters from the first to the last one that overlaps a detected candidate, and extends
    /// that run by characters standing where the next digit cell would be (a leading `1` or minus, a trailing
    /// digit that was not a candidate). Displays space digits at a fixed pitch, and a `1` sits at the right of
    /// its cell, so positions are judged by right edges. Reports an unreadable character at such a position:
    /// it may be a digit of the number (a `1` lost at the front turns 147 into 47).
    static func trimToCandidates(_ chars: [RecognizedCharacter], spans: [ClosedRange<Int>], typicalWidth: Double)
        -> (characters: [RecognizedCharacter], unclearNeighbour: Bool)
    {
        guard !spans.isEmpty else { return (chars, false) }
        let overlaps: (RecognizedCharacter) -> Bool = { c in
            spans.contains { $0.overlaps(c.box.minX...max(c.box.minX, c.box.maxX - 1)) }
        }
        guard let first = chars.firstIndex(where: overlaps), let last = chars.lastIndex(where: overlaps) else {
            return (chars, false)
        }
        let core = chars[first...last].filter { $0.character != "-" }
        let steps = zip(core.dropFirst(), core).map { Double($0.box.maxX - $1.box.maxX) }.sorted()
        let pitch = steps.isEmpty ? 1.25 * typicalWidth : max(steps[steps.count / 2], 0.8 * typicalWidth)
        let isClear: (RecognizedCharacter) -> Bool = { $0.character != "?" && $0.isAligned && $0.confidence > 0.5 }
        let atNextCell: (RecognizedCharacter, Double) -> Bool = { c, expectedRight in
            abs(Double(c.box.maxX) - expectedRight) <= 0.35 * pitch
                || (c.character == "-" && abs(Double(c.box.maxX) - expectedRight) <= 0.6 * pitch)
        }
        var lo = first, hi = last
        var unclear = false
        while lo > 0 {
            let c = chars[lo - 1]
            guard atNextCell(c, Double(chars[lo].box.maxX) - pitch) else { break }
            guard isClear(c) else { unclear = unclear || c.isAligned; break }
            lo -= 1
        }
        while hi < chars.count - 1 {
            let c = chars[hi + 1]
            guard atNextCell(c, Double(chars[hi].box.maxX) + pitch) else { break }
            guard isClear(c) else { unclear = unclear || c.isAligned; break }
            hi += 1
        }
        return (Array(chars[lo...hi]), unclear)
    }

    /// Decimal points: a dot about a stroke wide, standing free in the gap after a digit (not a broken-off piece
    /// of one), followed by another digit.
    static func insertingDecimalPoints(into characters: [RecognizedCharacter], dots: [Component], stroke: Int)
        -> [RecognizedCharacter]
    {
        let t = Double(stroke)
        let realDots = dots.filter { d in
            let side = Double(max(d.box.width, d.box.height))
            guard side >= 0.6 * t, side <= 2.2 * t else { return false }
            return !characters.contains { c in
                let overlap = min(c.box.maxX, d.box.maxX) - max(c.box.minX, d.box.minX)
                return Double(overlap) > 0.5 * Double(d.box.width)
            }
        }
        var out: [RecognizedCharacter] = []
        for (i, c) in characters.enumerated() {
            out.append(c)
            guard SegmentAlphabet.isDigit(c.character), i + 1 < characters.count else { continue }
            let next = characters[i + 1]
            if let dot = realDots.first(where: { $0.box.minX >= c.box.maxX - stroke && $0.box.maxX <= next.box.minX + stroke }) {
                out.append(RecognizedCharacter(character: ".", confidence: 1, segments: [], box: dot.box))
            }
        }
        return out
    }
}
