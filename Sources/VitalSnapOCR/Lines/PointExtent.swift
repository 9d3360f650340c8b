import VitalSnapImaging

/// The extent of points taken one at a time: the least and greatest x and y seen. `PixelRect(enclosing:)` is
/// made of it, so that a fixed set of corners (a quad's four, a character box's four) needs no array.
///
/// A point replaces a bound only where it lies strictly beyond it, as `min()` and `max()` of the points' x and y
/// would choose.
struct PointExtent {
    private(set) var minX: Double
    private(set) var maxX: Double
    private(set) var minY: Double
    private(set) var maxY: Double

    init(_ first: Point) {
        (minX, maxX, minY, maxY) = (first.x, first.x, first.y, first.y)
    }

    mutating func add(_ p: Point) {
        if p.x < minX { minX = p.x }
        if maxX < p.x { maxX = p.x }
        if p.y < minY { minY = p.y }
        if maxY < p.y { maxY = p.y }
    }

    /// The pixels holding the extent: its least corner rounded down, its width and height rounded up.
    var rect: PixelRect {
        PixelRect(x: Int(minX.rounded(.down)), y: Int(minY.rounded(.down)),
                  width: Int((maxX - minX).rounded(.up)), height: Int((maxY - minY).rounded(.up)))
    }
}

extension PixelRect {
    /// The smallest rectangle holding all `points` (`.zero` for none).
    public init(enclosing points: [Point]) {
        guard let first = points.first else {
            self = .zero
            return
        }
        var extent = PointExtent(first)
        for p in points.dropFirst() { extent.add(p) }
        self = extent.rect
    }

    /// The smallest rectangle holding the quad's four corners.
    public init(enclosing quad: LineQuad) {
        var extent = PointExtent(quad.topLeft)
        extent.add(quad.topRight)
        extent.add(quad.bottomRight)
        extent.add(quad.bottomLeft)
        self = extent.rect
    }
}
