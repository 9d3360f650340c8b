import VitalSnapImaging

/// Rotation of a finished photo by a multiple of 90 degrees: a phone held sideways or upside down whose
/// picture was saved without an orientation tag, which the reader must cope with.
public enum QuarterTurn {
    /// Rotates clockwise by `turns` x 90 degrees (any integer; taken modulo 4).
    public static func rotate(_ image: GrayImage, clockwiseTurns turns: Int) -> GrayImage {
        let t = ((turns % 4) + 4) % 4
        guard t != 0 else { return image }
        let w = image.width, h = image.height
        let (ow, oh) = t == 2 ? (w, h) : (h, w)
        var out = GrayImage(width: ow, height: oh)
        image.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        let (nx, ny): (Int, Int)
                        switch t {
                        case 1: (nx, ny) = (h - 1 - y, x)
                        case 2: (nx, ny) = (w - 1 - x, h - 1 - y)
                        default: (nx, ny) = (y, w - 1 - x)
                        }
                        dst[ny * ow + nx] = src[y * w + x]
                    }
                }
            }
        }
        return out
    }

    /// Where a continuous point of a `width` x `height` image lands after the same rotation.
    public static func rotate(_ p: CanvasPoint, width: Int, height: Int, clockwiseTurns turns: Int) -> CanvasPoint {
        let w = Double(width), h = Double(height)
        switch ((turns % 4) + 4) % 4 {
        case 1: return CanvasPoint(h - p.y, p.x)
        case 2: return CanvasPoint(w - p.x, h - p.y)
        case 3: return CanvasPoint(p.y, w - p.x)
        default: return p
        }
    }
}
