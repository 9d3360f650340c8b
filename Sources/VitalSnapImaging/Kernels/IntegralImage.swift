/// Summed-area tables of a gray image (sum and sum of squares), so the mean and variance of any rectangle
/// cost four lookups whatever its size. Rows and columns carry a leading zero, hence (width+1) x (height+1).
public struct IntegralImage: Sendable {
    public private(set) var width = 0
    public private(set) var height = 0
    /// Sums fit in 32 bits for images up to 16 megapixels of 255s; larger ones are never built here.
    public private(set) var sums: [UInt32] = []
    public private(set) var squares: [UInt64] = []

    public init() {}

    public init(_ image: GrayImage) {
        self.init()
        update(from: image)
    }

    /// Recomputes the tables for `image`, reusing storage.
    public mutating func update(from image: GrayImage) {
        precondition(image.width * image.height <= 16_000_000, "integral image too large for 32-bit sums")
        width = image.width
        height = image.height
        let stride = width + 1
        let count = stride * (height + 1)
        if sums.count != count {
            sums = [UInt32](repeating: 0, count: count)
            squares = [UInt64](repeating: 0, count: count)
        }
        image.pixels.withUnsafeBufferPointer { src in
            sums.withUnsafeMutableBufferPointer { s in
                squares.withUnsafeMutableBufferPointer { q in
                    let s = s.baseAddress!, q = q.baseAddress!
                    for x in 0...width { s[x] = 0; q[x] = 0 }
                    for y in 0..<height {
                        let row = src.baseAddress! + y * width
                        let prevS = s + y * stride, curS = s + (y + 1) * stride
                        let prevQ = q + y * stride, curQ = q + (y + 1) * stride
                        curS[0] = 0
                        curQ[0] = 0
                        var runS: UInt32 = 0
                        var runQ: UInt64 = 0
                        for x in 0..<width {
                            let v = UInt32(row[x])
                            runS &+= v
                            runQ &+= UInt64(v &* v)
                            curS[x + 1] = prevS[x + 1] &+ runS
                            curQ[x + 1] = prevQ[x + 1] &+ runQ
                        }
                    }
                }
            }
        }
    }

    /// Sum of pixels in [x0, x1) x [y0, y1); the caller keeps the bounds inside the image.
    @inline(__always)
    public func sum(x0: Int, y0: Int, x1: Int, y1: Int) -> UInt32 {
        let stride = width + 1
        return sums[y1 * stride + x1] &- sums[y0 * stride + x1] &- sums[y1 * stride + x0] &+ sums[y0 * stride + x0]
    }

    @inline(__always)
    public func sumOfSquares(x0: Int, y0: Int, x1: Int, y1: Int) -> UInt64 {
        let stride = width + 1
        return squares[y1 * stride + x1] &- squares[y0 * stride + x1] &- squares[y1 * stride + x0]
            &+ squares[y0 * stride + x0]
    }

    /// Mean and standard deviation of a rectangle clipped to the image.
    public func statistics(of rect: PixelRect) -> (mean: Double, deviation: Double) {
        let x0 = max(0, rect.minX), y0 = max(0, rect.minY)
        let x1 = min(width, rect.maxX), y1 = min(height, rect.maxY)
        guard x1 > x0, y1 > y0 else { return (0, 0) }
        let n = Double((x1 - x0) * (y1 - y0))
        let mean = Double(sum(x0: x0, y0: y0, x1: x1, y1: y1)) / n
        let meanSq = Double(sumOfSquares(x0: x0, y0: y0, x1: x1, y1: y1)) / n
        return (mean, max(0, meanSq - mean * mean).squareRoot())
    }
}
