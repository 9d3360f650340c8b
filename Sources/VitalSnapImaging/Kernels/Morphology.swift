/// Binary closing (dilate then erode) with a square of side 2*radius+1. Closing bridges the thin gaps between
/// the segments of one seven-segment digit so that the digit becomes one connected component.
public struct Closing: Sendable {
    public var radius: Int

    public init(radius: Int = 1) { self.radius = radius }

    public func apply(_ mask: inout InkMask, scratch: inout InkMask) {
        guard radius > 0 else { return }
        Self.dilateOrErode(mask, into: &scratch, radius: radius, dilate: true)
        Self.dilateOrErode(scratch, into: &mask, radius: radius, dilate: false)
    }

    /// Separable max (dilate) or min (erode) filter. Pixels outside the mask count as background for dilation
    /// and as ink for erosion, so closing never eats into shapes that touch the border.
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
