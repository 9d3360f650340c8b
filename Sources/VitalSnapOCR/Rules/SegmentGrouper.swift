import VitalSnapImaging

/// Joins the separate segments of one seven-segment digit into one blob. LCD segments are often drawn apart,
/// so a digit arrives as several components stacked above each other. Pieces are merged closest first, and a
/// merge is refused when the result could not be one character (too tall for its width), which keeps two
/// digits of stacked lines (a blood pressure monitor's SYS above DIA) apart. Every intermediate group is
/// returned too, not only the final ones: where lines are packed tightly a digit can still be merged with one
/// of the next line, and the line finder then picks the groups whose sizes agree with their neighbours.
public struct SegmentGrouper: Sendable {
    /// Largest vertical gap between pieces, relative to the taller piece.
    public var maximumGap = 0.45
    /// Smallest horizontal overlap, relative to the narrower piece.
    public var minimumOverlap = 0.3
    /// Tallest merged shape, height over width, unless it is a thin bar (a `1`).
    public var maximumAspect = 2.6

    public init() {}

    public func group(_ pieces: [Component], maximumHeight: Int) -> [Component] {
        var boxes = pieces.map(\.box)
        var areas = pieces.map(\.area)
        // Candidate pairs, closest first.
        var pairs: [(gap: Int, i: Int, j: Int)] = []
        let order = boxes.indices.sorted { boxes[$0].minX < boxes[$1].minX }
        for (n, i) in order.enumerated() {
            let a = boxes[i]
            for j in order[(n + 1)...] {
                let b = boxes[j]
                if b.minX >= a.maxX { break }
                if let gap = joinGap(a, b) { pairs.append((gap, i, j)) }
            }
        }
        pairs.sort { $0.gap < $1.gap }
        var parent = Array(pieces.indices)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        var nodes = pieces
        for (_, i, j) in pairs {
            let ri = find(i), rj = find(j)
            guard ri != rj else { continue }
            // Judge the merge on the groups as they are now, not on the two pieces alone.
            guard joinGap(boxes[ri], boxes[rj]) != nil else { continue }
            let merged = boxes[ri].union(boxes[rj])
            guard merged.height <= maximumHeight, isCharacterShape(merged) else { continue }
            // Two groups that each already look like a whole digit are two characters, one above the other.
            guard !(looksLikeDigit(boxes[ri]) && looksLikeDigit(boxes[rj])) else { continue }
            guard Double(merged.height) <= 2.3 * Double(max(boxes[ri].height, boxes[rj].height)) else { continue }
            parent[rj] = ri
            boxes[ri] = merged
            areas[ri] += areas[rj]
            nodes.append(Component(box: merged, area: areas[ri]))
        }
        return nodes
    }

    /// The vertical gap between two boxes that overlap enough horizontally, or nil when they should not join.
    func joinGap(_ a: PixelRect, _ b: PixelRect) -> Int? {
        let overlap = min(a.maxX, b.maxX) - max(a.minX, b.minX)
        // The two segments of an italic `1` are thin bars offset sideways by the slant: they may not overlap
        // at all, only nearly.
        let thinBars = Double(a.width) < 0.35 * Double(a.height) && Double(b.width) < 0.35 * Double(b.height)
        let slantAllowance = thinBars ? -0.2 * Double(max(a.height, b.height)) : 0
        guard Double(overlap) >= minimumOverlap * Double(min(a.width, b.width)) + slantAllowance else { return nil }
        let gap = max(a.minY, b.minY) - min(a.maxY, b.maxY)  // negative: they overlap vertically
        guard Double(gap) <= maximumGap * Double(max(a.height, b.height)) else { return nil }
        // Segments of one digit are stacked; pieces side by side at the same height (the right stroke of one
        // italic digit beside the left stroke of the next) belong to different characters.
        guard Double(-gap) <= 0.5 * Double(min(a.height, b.height)) else { return nil }
        return max(0, gap)
    }

    func looksLikeDigit(_ box: PixelRect) -> Bool {
        Double(box.height) >= 1.2 * Double(box.width) && Double(box.width) >= 0.45 * Double(box.height)
    }

    func isCharacterShape(_ box: PixelRect) -> Bool {
        let aspect = Double(box.height) / Double(max(1, box.width))
        return aspect <= maximumAspect || Double(box.width) <= 0.3 * Double(box.height)
    }
}
