/// Local-contrast binarization: a pixel is ink when it differs from the mean of the window around it by more
/// than `max(k * local deviation, minimumContrast)`. Comparing with the neighbourhood rather than one global
/// level copes with uneven light and shadows across a display; the deviation term keeps flat, noisy background
/// from turning into ink while still catching the faint strokes of low-contrast LCDs.
public struct AdaptiveThreshold: Sendable {
    public var radius: Int
    public var k: Double
    public var minimumContrast: Double

    public init(radius: Int = 12, k: Double = 0.3, minimumContrast: Double = 8) {
        self.radius = radius
        self.k = k
        self.minimumContrast = minimumContrast
    }

    /// Writes both polarities at once: `dark` marks pixels darker than their surroundings (LCD segments),
    /// `light` pixels brighter (backlit digits, glare).
    ///
    /// In integers, without a division: with n pixels in the window, S their sum and Q their sum of squares,
    /// |p - mean| > max(k * deviation, minC) is (n*p - S)^2 > max(k^2 * (n*Q - S^2), minC^2 * n^2), both sides
    /// multiplied by n^2. Rows of the summed-area tables are read through pointers.
    public func apply(_ image: GrayImage, integral: IntegralImage, dark: inout InkMask, light: inout InkMask) {
        let w = image.width, h = image.height
        dark.reshape(width: w, height: h)
        light.reshape(width: w, height: h)
        guard w > 0, h > 0 else { return }
        precondition(integral.width == w && integral.height == h, "the integral image is of another image")
        let k2 = k * k
        let minC2 = minimumContrast * minimumContrast
        let r = radius, stride = w + 1
        image.pixels.withUnsafeBufferPointer { src in
            integral.sums.withUnsafeBufferPointer { sums in
                integral.squares.withUnsafeBufferPointer { squares in
                    dark.pixels.withUnsafeMutableBufferPointer { d in
                        light.pixels.withUnsafeMutableBufferPointer { l in
                            @inline(__always) func classify(_ i: Int, n: Int64, sum: Int64, sq: UInt64) {
                                let diff = n &* Int64(src[i]) &- sum
                                let spread = n &* Int64(sq) &- sum &* sum
                                let limit = max(k2 * Double(spread), minC2 * Double(n &* n))
                                let beyond = Double(diff &* diff) > limit
                                d[i] = (beyond && diff < 0) ? 1 : 0
                                l[i] = (beyond && diff > 0) ? 1 : 0
                            }
                            for y in 0..<h {
                                let y0 = max(0, y - r), y1 = min(h, y + r + 1)
                                let top = y0 &* stride, bottom = y1 &* stride
                                let rows = Int64(y1 - y0)
                                let row = y &* w
                                @inline(__always) func edge(_ x: Int) {
                                    let x0 = max(0, x - r), x1 = min(w, x + r + 1)
                                    let sum = Int64(sums[bottom &+ x1] &- sums[top &+ x1] &- sums[bottom &+ x0] &+ sums[top &+ x0])
                                    let sq = squares[bottom &+ x1] &- squares[top &+ x1] &- squares[bottom &+ x0] &+ squares[top &+ x0]
                                    classify(row &+ x, n: Int64(x1 - x0) &* rows, sum: sum, sq: sq)
                                }
                                // Columns whose window lies wholly inside the image share one pixel count.
                                let first = min(r, w), last = max(first, w - r - 1)
                                for x in 0..<first { edge(x) }
                                let n = Int64(2 &* r &+ 1) &* rows
                                let sB = sums.baseAddress! + bottom, sT = sums.baseAddress! + top
                                let qB = squares.baseAddress! + bottom, qT = squares.baseAddress! + top
                                var x = first
                                while x < last {
                                    let x0 = x &- r, x1 = x &+ r &+ 1
                                    let sum = Int64(sB[x1] &- sT[x1] &- sB[x0] &+ sT[x0])
                                    classify(row &+ x, n: n, sum: sum, sq: qB[x1] &- qT[x1] &- qB[x0] &+ qT[x0])
                                    x &+= 1
                                }
                                for x in last..<w { edge(x) }
                            }
                        }
                    }
                }
            }
        }
    }
}
