import VitalSnapImaging

/// The number's extent: which of the characters read belong to the number, what lies beside it that may be one
/// of its digits, the window frame where the line runs into it, and the stray ink around it.
extension RuleCharacterRecognizer {
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
}
