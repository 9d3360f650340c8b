/// A rectangle in coordinates relative to an enclosing box: 0...1 on both axes, origin top-left.
public struct RelativeRect: Codable, Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let whole = RelativeRect(x: 0, y: 0, width: 1, height: 1)

    /// Encoded as `[x, y, width, height]`, which keeps the JSON definitions short and easy to diff.
    /// A box may end this far right or down (a little past 1: the definitions' decimals are rounded).
    static let maximumEnd = 1.0001

    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        x = try c.decode(Double.self)
        y = try c.decode(Double.self)
        width = try c.decode(Double.self)
        height = try c.decode(Double.self)
        let end = Self.maximumEnd
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= end, y + height <= end else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "relative box must lie within 0...1"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(x)
        try c.encode(y)
        try c.encode(width)
        try c.encode(height)
    }

    /// This rectangle placed inside `outer` (given in absolute units).
    public func placed(in outer: (x: Double, y: Double, width: Double, height: Double))
        -> (x: Double, y: Double, width: Double, height: Double)
    {
        (outer.x + x * outer.width, outer.y + y * outer.height, width * outer.width, height * outer.height)
    }
}
