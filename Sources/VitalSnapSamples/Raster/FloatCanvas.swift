import VitalSnapImaging

/// A grey-level image with `Float` samples (nominally 0...255) used while drawing.
///
/// Drawing accumulates many partial-coverage blends, blurs and lighting passes; doing that in 8 bits would
/// band and clip at every step, so everything is drawn in float and quantised once, at the end.
public struct FloatCanvas: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    public var values: [Float]

    public init(width: Int, height: Int, fill: Float = 0) {
        precondition(width >= 0 && height >= 0, "negative canvas size")
        self.width = width
        self.height = height
        self.values = [Float](repeating: fill, count: width * height)
    }

    public init(_ image: GrayImage) {
        self.width = image.width
        self.height = image.height
        self.values = image.pixels.map { Float($0) }
    }

    @inlinable
    public subscript(x: Int, y: Int) -> Float {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
    }

    /// Rounds and clamps to 8 bits.
    public func grayImage() -> GrayImage {
        var pixels = [UInt8](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for i in 0..<src.count {
                    let v = src[i]
                    // NaN would trap in UInt8(_:); it cannot occur, but a sample must never crash a test run.
                    dst[i] = v.isNaN ? 0 : UInt8(min(255, max(0, v + 0.5)))
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }
}
