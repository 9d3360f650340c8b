/// An affine map from output pixel coordinates to source coordinates:
/// `source = (a * x + b * y + tx, c * x + d * y + ty)`.
public struct AffineMap: Sendable, Hashable {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + tx, c * x + d * y + ty)
    }
}

extension GrayImage {
    /// Fills `out` (width x height) by sampling this image bilinearly at `transform(x, y)` for every output pixel.
    /// Samples outside the image take the nearest edge pixel, so a band reaching past the border stays neutral;
    /// with `outside`, those whose pixel centre maps beyond the image's outer edge take that value instead.
    public func warp(
        _ transform: AffineMap, width outWidth: Int, height outHeight: Int, outside: UInt8? = nil, into out: inout GrayImage
    ) {
        out.reshape(width: outWidth, height: outHeight)
        guard width > 0, height > 0 else { return }
        let w = width, h = height
        let maxX = Double(w - 1), maxY = Double(h - 1)
        let fills = outside != nil, fill = outside ?? 0
        let lowEdge = -0.5, highX = Double(w) - 0.5, highY = Double(h) - 0.5
        let t = transform
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!
                for oy in 0..<outHeight {
                    // Sample at pixel centres so that an identity map reproduces the image.
                    let fy = Double(oy)
                    var sx = t.b * fy + t.tx
                    var sy = t.d * fy + t.ty
                    let row = dst.baseAddress! + oy * outWidth
                    for ox in 0..<outWidth {
                        if fills && (sx < lowEdge || sy < lowEdge || sx > highX || sy > highY) {
                            row[ox] = fill
                            sx += t.a
                            sy += t.c
                            continue
                        }
                        let x = min(max(sx, 0), maxX), y = min(max(sy, 0), maxY)
                        let x0 = Int(x), y0 = Int(y)
                        let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
                        let fx = x - Double(x0), fyy = y - Double(y0)
                        let p00 = Double(s[y0 * w + x0]), p01 = Double(s[y0 * w + x1])
                        let p10 = Double(s[y1 * w + x0]), p11 = Double(s[y1 * w + x1])
                        let top = p00 + (p01 - p00) * fx
                        let bottom = p10 + (p11 - p10) * fx
                        row[ox] = UInt8(min(255, max(0, top + (bottom - top) * fyy + 0.5)))
                        sx += t.a
                        sy += t.c
                    }
                }
            }
        }
    }
}
