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

    /// Thresholds to pure black and white at Otsu's level of the luma; `lightInk` says whether the characters
    /// are the light side. The characters come out white, as in binarised field crops.
    static func binarize(_ rgb: inout [UInt8], lightInk: Bool) {
        let n = rgb.count / 3
        var luma = [UInt8](repeating: 0, count: n)
        var histogram = [Int](repeating: 0, count: 256)
        for i in 0..<n {
            let y = (299 * Int(rgb[3 * i]) + 587 * Int(rgb[3 * i + 1]) + 114 * Int(rgb[3 * i + 2]) + 500) / 1000
            luma[i] = UInt8(y)
            histogram[y] += 1
        }
        let level = otsu(histogram, total: n)
        for i in 0..<n {
            let light = Int(luma[i]) > level
            let v: UInt8 = light == lightInk ? 255 : 0
            rgb[3 * i] = v
            rgb[3 * i + 1] = v
            rgb[3 * i + 2] = v
        }
    }

    /// The level that best separates the histogram into two classes (between-class variance).
    static func otsu(_ histogram: [Int], total: Int) -> Int {
        let sum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var sumBelow = 0.0, countBelow = 0
        var best = 0.0, level = 127
        for t in 0..<256 {
            countBelow += histogram[t]
            guard countBelow > 0 else { continue }
            let countAbove = total - countBelow
            guard countAbove > 0 else { break }
            sumBelow += Double(t * histogram[t])
            let meanBelow = sumBelow / Double(countBelow), meanAbove = (sum - sumBelow) / Double(countAbove)
            let between = Double(countBelow) * Double(countAbove) * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best {
                best = between
                level = t
            }
        }
        return level
    }
}
