/// One 8-connected blob of ink: its bounding box and pixel count.
public struct Component: Sendable, Hashable {
    public var box: PixelRect
    public var area: Int

    public init(box: PixelRect, area: Int) {
        self.box = box
        self.area = area
    }

    /// Share of the bounding box covered by ink.
    public var fill: Double { box.area > 0 ? Double(area) / Double(box.area) : 0 }
}

/// Labels 8-connected components of an ink mask by runs: each row's horizontal runs are joined to the runs
/// they touch in the row above with union-find. Working on runs instead of pixels keeps it fast on masks that
/// are mostly background, and it never recurses, so large blobs cannot overflow a stack.
public struct ConnectedComponents: Sendable {
    private struct Run { var y: Int32; var x0: Int32; var x1: Int32; var parent: Int32 }  // x1 exclusive
    private var runs: [Run] = []
    /// Per run, its root's index in `bounds` (-1: none yet); per root, its blob's extent and area.
    private var slot: [Int32] = []
    private var bounds: [(x0: Int, y0: Int, x1: Int, y1: Int, area: Int)] = []
    /// The components returned by the last `label` (reused when the caller has let go of them).
    private var components: [Component] = []

    public init() {}

    /// Components with at least `minimumArea` pixels, in no particular order.
    public mutating func label(_ mask: InkMask, minimumArea: Int = 1) -> [Component] {
        runs.removeAll(keepingCapacity: true)
        let w = mask.width, h = mask.height
        guard w > 0, h > 0 else { return [] }
        var previousStart = 0, previousEnd = 0  // runs of the row above: runs[previousStart..<previousEnd]
        mask.pixels.withUnsafeBufferPointer { p in
            for y in 0..<h {
                let row = p.baseAddress! + y * w
                let currentStart = runs.count
                var x = 0
                while x < w {
                    if row[x] == 0 { x &+= 1; continue }
                    let start = x
                    while x < w && row[x] != 0 { x &+= 1 }
                    let index = Int32(runs.count)
                    runs.append(Run(y: Int32(y), x0: Int32(start), x1: Int32(x), parent: index))
                    // 8-connectivity: a run above touches if it overlaps [start-1, x] (x exclusive end + 1).
                    var j = previousStart
                    while j < previousEnd {
                        let r = runs[j]
                        if r.x1 >= Int32(start) && r.x0 <= Int32(x) { union(Int(index), j) }
                        if r.x0 > Int32(x) { break }
                        j &+= 1
                    }
                }
                previousStart = currentStart
                previousEnd = runs.count
            }
        }
        // Gather statistics per root.
        slot.removeAll(keepingCapacity: true)
        slot.append(contentsOf: repeatElement(-1, count: runs.count))
        bounds.removeAll(keepingCapacity: true)
        for i in 0..<runs.count {
            let root = find(i)
            let r = runs[i]
            var s = slot[root]
            if s < 0 {
                s = Int32(bounds.count)
                slot[root] = s
                bounds.append((Int(r.x0), Int(r.y), Int(r.x1), Int(r.y) + 1, 0))
            }
            var b = bounds[Int(s)]
            b.x0 = min(b.x0, Int(r.x0))
            b.x1 = max(b.x1, Int(r.x1))
            b.y0 = min(b.y0, Int(r.y))
            b.y1 = max(b.y1, Int(r.y) + 1)
            b.area += Int(r.x1 - r.x0)
            bounds[Int(s)] = b
        }
        components.removeAll(keepingCapacity: true)
        components.reserveCapacity(bounds.count)
        for b in bounds where b.area >= minimumArea {
            components.append(Component(box: PixelRect(x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0), area: b.area))
        }
        return components
    }

    private mutating func find(_ i: Int) -> Int {
        var root = i
        while Int(runs[root].parent) != root { root = Int(runs[root].parent) }
        var node = i
        while Int(runs[node].parent) != root {  // path compression
            let next = Int(runs[node].parent)
            runs[node].parent = Int32(root)
            node = next
        }
        return root
    }

    private mutating func union(_ a: Int, _ b: Int) {
        let ra = find(a), rb = find(b)
        if ra != rb { runs[max(ra, rb)].parent = Int32(min(ra, rb)) }
    }
}
