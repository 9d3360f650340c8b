/// Binary closing (dilate then erode) with a square of side 2*radius+1. Closing bridges the thin gaps between
/// the segments of one seven-segment digit so that the digit becomes one connected component.
public struct Closing: Sendable {
    public var radius: Int

    public init(radius: Int = 1) { self.radius = radius }

    /// Works on a copy padded with `radius` of background all round, so that closing behaves as on an
    /// unbounded plane: a shape touching the border keeps its edge, and the space between a shape and the
    /// border is not filled.
    public func apply(_ mask: inout InkMask, scratch: inout InkMask) {
        guard radius > 0 else { return }
        let w = mask.width, h = mask.height, r = radius
        var padded = InkMask(width: w + 2 * r, height: h + 2 * r)
        for y in 0..<h {
            for x in 0..<w where mask.pixels[y * w + x] != 0 { padded.pixels[(y + r) * (w + 2 * r) + x + r] = 1 }
        }
        Self.dilateOrErode(padded, into: &scratch, radius: r, dilate: true)
        Self.dilateOrErode(scratch, into: &padded, radius: r, dilate: false)
        for y in 0..<h {
            for x in 0..<w { mask.pixels[y * w + x] = padded.pixels[(y + r) * (w + 2 * r) + x + r] }
        }
    }

    /// Separable max (dilate) or min (erode) filter; the window is clipped at the border.
    static func dilateOrErode(_ src: InkMask, into dst: inout InkMask, radius: Int, dilate: Bool) {
        let w = src.width, h = src.height
        dst.reshape(width: w, height: h)
        var rowBuffer = [UInt8](repeating: 0, count: w * h)
        src.pixels.withUnsafeBufferPointer { s in
            rowBuffer.withUnsafeMutableBufferPointer { t in
                // Horizontal pass.
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        let x0 = max(0, x - radius), x1 = min(w - 1, x + radius)
                        var v: UInt8 = dilate ? 0 : 1
                        if dilate {
                            for i in x0...x1 where s[row + i] != 0 { v = 1; break }
                        } else {
                            for i in x0...x1 where s[row + i] == 0 { v = 0; break }
                        }
                        t[row + x] = v
                    }
                }
            }
        }
        rowBuffer.withUnsafeBufferPointer { t in
            dst.pixels.withUnsafeMutableBufferPointer { d in
                for y in 0..<h {
                    let y0 = max(0, y - radius), y1 = min(h - 1, y + radius)
                    for x in 0..<w {
                        var v: UInt8 = dilate ? 0 : 1
                        if dilate {
                            for j in y0...y1 where t[j * w + x] != 0 { v = 1; break }
                        } else {
                            for j in y0...y1 where t[j * w + x] == 0 { v = 0; break }
                        }
                        d[y * w + x] = v
                    }
                }
            }
        }
    }
}
