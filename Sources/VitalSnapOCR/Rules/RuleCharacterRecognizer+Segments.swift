import VitalSnapImaging

/// Segments: what a cell is by its shape (a whole character, a thin `1`, a minus, a lower-case letter, nothing),
/// and which of its seven segments are lit, judged by their darkness against the cell's lit level.
extension RuleCharacterRecognizer {
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
}
