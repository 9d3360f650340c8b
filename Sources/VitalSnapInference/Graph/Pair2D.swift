/// Two integers, one per image axis: rows (`y`) then columns (`x`), as PyTorch's `(h, w)` pairs.
public struct Pair2D: Sendable, Hashable, CustomStringConvertible {
    public var y: Int
    public var x: Int

    public init(y: Int, x: Int) {
        self.y = y
        self.x = x
    }

    public init(_ both: Int) {
        self.init(y: both, x: both)
    }

    public var description: String { "[\(y), \(x)]" }
}
