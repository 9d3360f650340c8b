import Foundation

/// Separable Gaussian blur: out-of-focus optics, the soft edge of a shadow, the halo of backlit segments.
extension FloatCanvas {
    /// The normalised kernel for `sigma`, radius ceil(3 sigma) (covers 99.7% of the weight).
    static func gaussianKernel(sigma: Double) -> [Float] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-radius...radius).map { i in Float(exp(-Double(i * i) / (2 * sigma * sigma))) }
        let sum = kernel.reduce(0, +)
        for i in kernel.indices { kernel[i] /= sum }
        return kernel
    }

    /// Blurs in place; edges repeat the border sample so the image does not darken at its sides.
    public mutating func gaussianBlur(sigma: Double) {
        guard sigma > 0.05, width > 0, height > 0 else { return }
        let kernel = Self.gaussianKernel(sigma: sigma)
        let radius = kernel.count / 2
        let w = width, h = height
        var temp = [Float](repeating: 0, count: values.count)
        values.withUnsafeMutableBufferPointer { img in
            temp.withUnsafeMutableBufferPointer { tmp in
                kernel.withUnsafeBufferPointer { k in
                    // Horizontal pass: image -> temp.
                    for y in 0..<h {
                        let row = y * w
                        for x in 0..<w {
                            var acc: Float = 0
                            if x >= radius && x + radius < w {
                                let base = row + x - radius
                                for i in 0..<k.count { acc += k[i] * img[base + i] }
                            } else {
                                for i in 0..<k.count {
                                    let sx = min(max(x + i - radius, 0), w - 1)
                                    acc += k[i] * img[row + sx]
                                }
                            }
                            tmp[row + x] = acc
                        }
                    }
                    // Vertical pass: temp -> image, row by row so memory is read in order.
                    for y in 0..<h {
                        let row = y * w
                        for x in 0..<w { img[row + x] = 0 }
                        for i in 0..<k.count {
                            let sy = min(max(y + i - radius, 0), h - 1)
                            let weight = k[i]
                            let src = sy * w
                            for x in 0..<w { img[row + x] += weight * tmp[src + x] }
                        }
                    }
                }
            }
        }
    }
}
