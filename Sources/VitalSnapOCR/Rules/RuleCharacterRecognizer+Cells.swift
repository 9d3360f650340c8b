import VitalSnapImaging

/// Cells: grouping the line's ink into one box per character, cutting off the window frame and splitting off a
/// touching `1`; the line's stroke width and lit level.
extension RuleCharacterRecognizer {
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
        // In the order of their first box, not a dictionary's (whose order changes from run to run, and with it
        // the order of cells that start at the same column).
        var slot: [Int: Int] = [:]
        var groups: [PixelRect] = []
        for i in boxes.indices {
            let root = find(i)
            if let s = slot[root] { groups[s] = groups[s].union(boxes[i]) } else { slot[root] = groups.count; groups.append(boxes[i]) }
        }
        return groups.sorted { $0.minX < $1.minX }
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
            // A quarter and three quarters down the cell (walked, not stored: no array per cell).
            for quarter in stride(from: 1, through: 3, by: 2) {
                let y = cell.minY + quarter * cell.height / 4
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
}
