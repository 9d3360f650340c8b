/// A point in continuous pixel coordinates: (0, 0) is the top-left corner of the top-left pixel, so the
/// centre of pixel (x, y) is (x + 0.5, y + 0.5).
public struct CanvasPoint: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static func + (a: CanvasPoint, b: CanvasPoint) -> CanvasPoint { CanvasPoint(a.x + b.x, a.y + b.y) }
    public static func - (a: CanvasPoint, b: CanvasPoint) -> CanvasPoint { CanvasPoint(a.x - b.x, a.y - b.y) }
    public static func * (a: CanvasPoint, k: Double) -> CanvasPoint { CanvasPoint(a.x * k, a.y * k) }

    public var length: Double { (x * x + y * y).squareRoot() }

    public func distance(to other: CanvasPoint) -> Double { (self - other).length }

    public var description: String {
        "(\((x * 100).rounded() / 100), \((y * 100).rounded() / 100))"
    }
}

/// Four corners in the order top-left, top-right, bottom-right, bottom-left of the object they outline (the
/// object's own "up", which after tilt or rotation need not be the image's up).
public struct QuadCorners: Sendable, Hashable, CustomStringConvertible {
    public var topLeft: CanvasPoint
    public var topRight: CanvasPoint
    public var bottomRight: CanvasPoint
    public var bottomLeft: CanvasPoint

    public init(topLeft: CanvasPoint, topRight: CanvasPoint, bottomRight: CanvasPoint, bottomLeft: CanvasPoint) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The corners of an axis-aligned rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(
            topLeft: CanvasPoint(x, y), topRight: CanvasPoint(x + width, y),
            bottomRight: CanvasPoint(x + width, y + height), bottomLeft: CanvasPoint(x, y + height))
    }

    public var points: [CanvasPoint] { [topLeft, topRight, bottomRight, bottomLeft] }

    public func map(_ transform: (CanvasPoint) -> CanvasPoint) -> QuadCorners {
        QuadCorners(
            topLeft: transform(topLeft), topRight: transform(topRight),
            bottomRight: transform(bottomRight), bottomLeft: transform(bottomLeft))
    }

    public var centroid: CanvasPoint {
        CanvasPoint(
            (topLeft.x + topRight.x + bottomRight.x + bottomLeft.x) / 4,
            (topLeft.y + topRight.y + bottomRight.y + bottomLeft.y) / 4)
    }

    /// Smallest and largest coordinates.
    public var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let xs = points.map(\.x), ys = points.map(\.y)
        return (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
    }

    public var description: String { "[\(topLeft) \(topRight) \(bottomRight) \(bottomLeft)]" }
}
