import VitalSnapImaging

/// Joins the separate segments of one seven-segment digit into one blob. LCD segments are often drawn apart,
/// so a digit arrives as several components stacked above each other. Pieces are merged closest first, and a
/// merge is refused when the result could not be one character (too tall for its width), which keeps two
/// digits of stacked lines (a blood pressure monitor's SYS above DIA) apart. Every intermediate group is
/// returned too, not only the final ones: where lines are packed tightly a digit can still be merged with one
/// of the next line, and the line finder then picks the groups whose sizes agree with their neighbours.
public struct SegmentGrouper: Sendable {
    /// What may be joined. Unless a field says otherwise, its value was hand-tuned on the sample stills and real
    /// photos when the rule-based reader was written (b291d7c, then Detection/SegmentGrouper.swift), and the
    /// history records no measurement of it.
    public struct Configuration: Sendable {
        /// Largest vertical gap between two pieces, as a share of the taller piece's height.
        public var maximumGap = 0.45
        /// Smallest horizontal overlap of two pieces, as a share of the narrower piece's width.
        public var minimumOverlap = 0.3
        /// A piece narrower than this share of its own height (width over height) is a thin bar; two thin bars
        /// (the segments of an italic `1`) may join with less overlap (`thinBarOverlapAllowance`). Since 9f63fb2.
        public var thinBarWidth = 0.35
        /// How much less than `minimumOverlap` two thin bars may overlap, as a share of the taller one's height:
        /// the slant offsets them sideways, so they may not overlap at all, only nearly. Since 9f63fb2.
        public var thinBarOverlapAllowance = 0.2
        /// Pieces overlapping vertically by more than this share of the shorter one's height are side by side
        /// (the right stroke of one italic digit beside the left stroke of the next), not stacked segments of one.
        public var maximumVerticalOverlap = 0.5
        /// Tallest merged shape, height over width, unless it is a bar (`barWidth`).
        public var maximumAspect = 2.6
        /// A merged shape no wider than this share of its height (width over height) is a bar, a `1`, and may be
        /// taller than `maximumAspect`.
        public var barWidth = 0.3
        /// A merge may be at most this many times as tall as the taller of the two groups it joins.
        public var maximumHeightGrowth = 2.3
        /// A group at least this many times as tall as it is wide (height over width)...
        public var digitMinimumAspect = 1.2
        /// ...and at least this wide, as a share of its height (width over height), already looks like a whole
        /// digit: two such groups are two characters, one above the other, and are not joined. Was 0.4 until
        /// 9f63fb2 raised it, with no measurement recorded.
        public var digitMinimumWidth = 0.45
        public init() {}
    }

    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

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
            let taller = Double(max(boxes[ri].height, boxes[rj].height))
            guard Double(merged.height) <= configuration.maximumHeightGrowth * taller else { continue }
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
        let c = configuration
        let thinBars = Double(a.width) < c.thinBarWidth * Double(a.height)
            && Double(b.width) < c.thinBarWidth * Double(b.height)
        let slantAllowance = thinBars ? -c.thinBarOverlapAllowance * Double(max(a.height, b.height)) : 0
        guard Double(overlap) >= c.minimumOverlap * Double(min(a.width, b.width)) + slantAllowance else { return nil }
        let gap = max(a.minY, b.minY) - min(a.maxY, b.maxY)  // negative: they overlap vertically
        guard Double(gap) <= c.maximumGap * Double(max(a.height, b.height)) else { return nil }
        // Segments of one digit are stacked; pieces side by side at the same height (the right stroke of one
        // italic digit beside the left stroke of the next) belong to different characters.
        guard Double(-gap) <= c.maximumVerticalOverlap * Double(min(a.height, b.height)) else { return nil }
        return max(0, gap)
    }

    func looksLikeDigit(_ box: PixelRect) -> Bool {
        Double(box.height) >= configuration.digitMinimumAspect * Double(box.width)
            && Double(box.width) >= configuration.digitMinimumWidth * Double(box.height)
    }

    func isCharacterShape(_ box: PixelRect) -> Bool {
        let aspect = Double(box.height) / Double(max(1, box.width))
        return aspect <= configuration.maximumAspect || Double(box.width) <= configuration.barWidth * Double(box.height)
    }
}
