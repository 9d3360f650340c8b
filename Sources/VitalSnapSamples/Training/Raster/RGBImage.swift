import VitalSnapImaging

/// Interleaved 8-bit RGB pixels and the operations the training set needs on finished images.
enum RGBImage {
    /// Rotates clockwise by `turns` quarter turns (as `QuarterTurn.rotate` does for grey images).
    static func rotate(_ rgb: [UInt8], width w: Int, height h: Int, clockwiseTurns turns: Int) -> (rgb: [UInt8], width: Int, height: Int) {
        let t = ((turns % 4) + 4) % 4
        guard t != 0 else { return (rgb, w, h) }
        let (ow, oh) = t == 2 ? (w, h) : (h, w)
        var out = [UInt8](repeating: 0, count: rgb.count)
        rgb.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        let (nx, ny): (Int, Int)
                        switch t {
                        case 1: (nx, ny) = (h - 1 - y, x)
                        case 2: (nx, ny) = (w - 1 - x, h - 1 - y)
                        default: (nx, ny) = (y, w - 1 - x)
                        }
                        let s = 3 * (y * w + x), d = 3 * (ny * ow + nx)
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return (out, ow, oh)
    }

    /// Thresholds to pure black and white as field-crop data sets are: each pixel against the mean of the
    /// window around it (`AdaptiveThreshold`, robust to uneven light), the characters white. `lightInk` says
    /// whether the characters are lighter than their field.
    static func binarize(_ rgb: inout [UInt8], width: Int, height: Int, threshold: AdaptiveThreshold, lightInk: Bool) {
        let n = width * height
        var luma = GrayImage(width: width, height: height)
        for i in 0..<n {
            let r = 299 * Int(rgb[3 * i]), g = 587 * Int(rgb[3 * i + 1]), b = 114 * Int(rgb[3 * i + 2])
            luma.pixels[i] = UInt8((r + g + b + 500) / 1000)
        }
        var dark = InkMask(width: 0, height: 0), light = InkMask(width: 0, height: 0)
        threshold.apply(luma, integral: IntegralImage(luma), dark: &dark, light: &light)
        let ink = lightInk ? light : dark
        for i in 0..<n {
            let v: UInt8 = ink.pixels[i] != 0 ? 255 : 0
            rgb[3 * i] = v
            rgb[3 * i + 1] = v
            rgb[3 * i + 2] = v
        }
    }
}
