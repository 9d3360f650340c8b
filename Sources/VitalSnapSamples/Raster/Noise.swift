import Foundation

/// Seeded noise: per-pixel sensor noise, and smooth "value noise" for textures (wood grain wobble, blotchy
/// light, uneven LCD backgrounds).
extension FloatCanvas {
    /// Adds zero-mean Gaussian noise with standard deviation `sigma` (grey levels).
    public mutating func addGaussianNoise(sigma: Double, random: inout SampleRandom) {
        guard sigma > 0 else { return }
        let s = Float(sigma)
        values.withUnsafeMutableBufferPointer { buf in
            for i in 0..<buf.count { buf[i] += s * Float(random.gaussian()) }
        }
    }

    /// A smooth random field in -1...1 varying over about `cellSize` pixels: random values on a coarse grid,
    /// interpolated with a smoothstep so the cell borders do not show.
    public static func valueNoise(
        width: Int, height: Int, cellSize: Double, random: inout SampleRandom
    ) -> FloatCanvas {
        let cell = max(2.0, cellSize)
        let gw = Int((Double(width) / cell).rounded(.up)) + 2
        let gh = Int((Double(height) / cell).rounded(.up)) + 2
        var grid = [Float](repeating: 0, count: gw * gh)
        for i in grid.indices { grid[i] = Float(random.uniform(-1...1)) }
        var out = FloatCanvas(width: width, height: height)
        out.values.withUnsafeMutableBufferPointer { buf in
            for y in 0..<height {
                let gy = Double(y) / cell
                let iy = Int(gy)
                var ty = Float(gy - Double(iy))
                ty = ty * ty * (3 - 2 * ty)
                for x in 0..<width {
                    let gx = Double(x) / cell
                    let ix = Int(gx)
                    var tx = Float(gx - Double(ix))
                    tx = tx * tx * (3 - 2 * tx)
                    let a = grid[iy * gw + ix], b = grid[iy * gw + ix + 1]
                    let c = grid[(iy + 1) * gw + ix], d = grid[(iy + 1) * gw + ix + 1]
                    buf[y * width + x] = (a + (b - a) * tx) * (1 - ty) + (c + (d - c) * tx) * ty
                }
            }
        }
        return out
    }

    /// Adds `amount` times another canvas of the same size.
    public mutating func add(_ other: FloatCanvas, amount: Float) {
        precondition(other.width == width && other.height == height, "canvas sizes differ")
        values.withUnsafeMutableBufferPointer { dst in
            other.values.withUnsafeBufferPointer { src in
                for i in 0..<dst.count { dst[i] += amount * src[i] }
            }
        }
    }
}
