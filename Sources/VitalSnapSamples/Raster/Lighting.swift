import Foundation

/// Light as a phone camera sees it: a brightness ramp from the nearest window or lamp, darker corners
/// (lens vignetting), soft shadows and specular glare.
extension FloatCanvas {
    /// Multiplies by a linear ramp through the centre: `strength` 0.3 makes one side 30% brighter and the
    /// opposite side 30% darker. `angle` (radians) points towards the bright side.
    public mutating func applyLightGradient(angle: Double, strength: Double) {
        guard strength != 0 else { return }
        let w = width, h = height
        let cx = Double(w) / 2, cy = Double(h) / 2
        let half = max(1, (Double(w * w + h * h)).squareRoot() / 2)
        let dx = Float(cos(angle) * strength / half), dy = Float(sin(angle) * strength / half)
        values.withUnsafeMutableBufferPointer { buf in
            for y in 0..<h {
                let rowTerm = 1 + dy * Float(Double(y) + 0.5 - cy)
                for x in 0..<w {
                    buf[y * w + x] *= max(0, rowTerm + dx * Float(Double(x) + 0.5 - cx))
                }
            }
        }
    }

    /// Darkens towards the corners: the corners lose `amount` of their brightness, falling off with the
    /// square of the distance from the centre as with a real lens.
    public mutating func applyVignette(amount: Double) {
        guard amount > 0 else { return }
        let w = width, h = height
        let cx = Float(w) / 2, cy = Float(h) / 2
        let inv = 1 / (cx * cx + cy * cy)
        let a = Float(amount)
        values.withUnsafeMutableBufferPointer { buf in
            for y in 0..<h {
                let ddy = Float(y) + 0.5 - cy
                for x in 0..<w {
                    let ddx = Float(x) + 0.5 - cx
                    buf[y * w + x] *= 1 - a * (ddx * ddx + ddy * ddy) * inv
                }
            }
        }
    }

    /// A specular reflection: pixels are pulled towards white, fully (times `strength`) inside the `core`
    /// fraction of the ellipse and fading smoothly to nothing at its rim. With strength 1 the core is pure
    /// white whatever was under it, which is what hides segments in real glare.
    public mutating func addGlare(
        center: CanvasPoint, radiusX: Double, radiusY: Double, angle: Double, strength: Double, core: Double = 0.45
    ) {
        guard radiusX > 0, radiusY > 0, strength > 0 else { return }
        let reach = max(radiusX, radiusY)
        let x0 = max(0, Int(center.x - reach)), x1 = min(width, Int(center.x + reach) + 1)
        let y0 = max(0, Int(center.y - reach)), y1 = min(height, Int(center.y + reach) + 1)
        guard x1 > x0, y1 > y0 else { return }
        let ca = cos(angle), sa = sin(angle)
        let w = width
        let coreEdge = min(max(core, 0), 0.99)
        values.withUnsafeMutableBufferPointer { buf in
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let px = Double(x) + 0.5 - center.x, py = Double(y) + 0.5 - center.y
                    let u = (px * ca + py * sa) / radiusX, v = (-px * sa + py * ca) / radiusY
                    let d = (u * u + v * v).squareRoot()
                    guard d < 1 else { continue }
                    var t = (d - coreEdge) / (1 - coreEdge)
                    t = min(max(t, 0), 1)
                    let falloff = 1 - t * t * (3 - 2 * t)
                    let k = Float(strength * falloff)
                    buf[y * w + x] += (255 - buf[y * w + x]) * k
                }
            }
        }
    }

    /// Multiplies by `1 - amount * mask` (a shadow where `mask` is 1).
    public mutating func darken(by mask: FloatCanvas, amount: Float) {
        precondition(mask.width == width && mask.height == height, "canvas sizes differ")
        values.withUnsafeMutableBufferPointer { dst in
            mask.values.withUnsafeBufferPointer { m in
                for i in 0..<dst.count { dst[i] *= 1 - amount * m[i] }
            }
        }
    }

    /// Maps v to `gain * v + offset` (exposure and contrast of the camera).
    public mutating func applyGain(_ gain: Float, offset: Float) {
        values.withUnsafeMutableBufferPointer { buf in
            for i in 0..<buf.count { buf[i] = buf[i] * gain + offset }
        }
    }
}
