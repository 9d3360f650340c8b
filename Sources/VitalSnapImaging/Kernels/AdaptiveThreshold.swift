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
    public func apply(_ image: GrayImage, integral: IntegralImage, dark: inout InkMask, light: inout InkMask) {
        let w = image.width, h = image.height
        dark.reshape(width: w, height: h)
        light.reshape(width: w, height: h)
        guard w > 0, h > 0 else { return }
        let k2 = k * k
        let minC = minimumContrast
        image.pixels.withUnsafeBufferPointer { src in
            dark.pixels.withUnsafeMutableBufferPointer { d in
                light.pixels.withUnsafeMutableBufferPointer { l in
                    for y in 0..<h {
                        let y0 = max(0, y - radius), y1 = min(h, y + radius + 1)
                        let row = y * w
                        for x in 0..<w {
                            let x0 = max(0, x - radius), x1 = min(w, x + radius + 1)
                            let n = Double((x1 - x0) * (y1 - y0))
                            let mean = Double(integral.sum(x0: x0, y0: y0, x1: x1, y1: y1)) / n
                            let variance = max(0, Double(integral.sumOfSquares(x0: x0, y0: y0, x1: x1, y1: y1)) / n - mean * mean)
                            let diff = Double(src[row + x]) - mean
                            // |diff| > max(k*s, minC)  <=>  diff^2 > max(k^2 * var, minC^2), without a square root.
                            let limit = max(k2 * variance, minC * minC)
                            let beyond = diff * diff > limit
                            d[row + x] = (beyond && diff < 0) ? 1 : 0
                            l[row + x] = (beyond && diff > 0) ? 1 : 0
                        }
                    }
                }
            }
        }
    }
}
