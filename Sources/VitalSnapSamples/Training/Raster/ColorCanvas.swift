import Foundation
import VitalSnapImaging

/// A colour image being drawn: three `FloatCanvas` planes (red, green, blue), so the grey renderer's filters
/// (blur, light ramps, vignetting, glare) serve each plane unchanged.
public struct ColorCanvas: Sendable {
    public var red: FloatCanvas
    public var green: FloatCanvas
    public var blue: FloatCanvas

    public init(width: Int, height: Int, fill: RGBColor) {
        red = FloatCanvas(width: width, height: height, fill: fill.r)
        green = FloatCanvas(width: width, height: height, fill: fill.g)
        blue = FloatCanvas(width: width, height: height, fill: fill.b)
    }

    /// A grey texture coloured: each plane is the texture times `color / shade`, so a texture whose mean is
    /// `shade` comes out with mean `color`.
    public init(texture: FloatCanvas, shade: Float, color: RGBColor) {
        let k = 1 / max(1, shade)
        red = texture
        green = texture
        blue = texture
        red.applyGain(color.r * k, offset: 0)
        green.applyGain(color.g * k, offset: 0)
        blue.applyGain(color.b * k, offset: 0)
    }

    public var width: Int { red.width }
    public var height: Int { red.height }

    /// The colour at a pixel.
    public subscript(x: Int, y: Int) -> RGBColor {
        RGBColor(red[x, y], green[x, y], blue[x, y])
    }

    /// Blends `color` in by the mask's coverage times `opacity`.
    mutating func blend(_ mask: CoverageMask, color: RGBColor, opacity: Float = 1) {
        blend(mask, opacity: opacity) { _, _ in color }
    }

    /// Blends a linear gradient in: `from` at `start`, `to` at `end` (canvas coordinates), constant beyond.
    mutating func blend(
        _ mask: CoverageMask, from: RGBColor, at start: CanvasPoint, to: RGBColor, at end: CanvasPoint, opacity: Float = 1
    ) {
        let dx = end.x - start.x, dy = end.y - start.y
        let n = max(1e-9, dx * dx + dy * dy)
        blend(mask, opacity: opacity) { x, y in
            let t = ((Double(x) + 0.5 - start.x) * dx + (Double(y) + 0.5 - start.y) * dy) / n
            return from.mixed(with: to, Float(min(1, max(0, t))))
        }
    }

    private mutating func blend(_ mask: CoverageMask, opacity: Float, color: (Int, Int) -> RGBColor) {
        let w = width, mw = mask.width
        let ox = mask.x0, oy = mask.y0
        let cov = mask.coverage.values
        for my in 0..<mask.height {
            let y = oy + my
            for mx in 0..<mw {
                let m = cov[my * mw + mx] * opacity
                guard m > 0 else { continue }
                let x = ox + mx
                let c = color(x, y)
                let i = y * w + x
                red.values[i] += (c.r - red.values[i]) * m
                green.values[i] += (c.g - green.values[i]) * m
                blue.values[i] += (c.b - blue.values[i]) * m
            }
        }
    }

    /// Adds `color` times the coverage times `amount` (light: glow around lit segments).
    mutating func add(_ mask: CoverageMask, color: RGBColor, amount: Float) {
        let w = width, mw = mask.width
        let cov = mask.coverage.values
        for my in 0..<mask.height {
            let row = (mask.y0 + my) * w + mask.x0
            for mx in 0..<mw {
                let m = cov[my * mw + mx] * amount
                guard m > 0 else { continue }
                red.values[row + mx] += color.r * m
                green.values[row + mx] += color.g * m
                blue.values[row + mx] += color.b * m
            }
        }
    }

    /// Multiplies by `1 - amount * coverage` (a shadow).
    mutating func darken(_ mask: CoverageMask, amount: Float) {
        let w = width, mw = mask.width
        let cov = mask.coverage.values
        for my in 0..<mask.height {
            let row = (mask.y0 + my) * w + mask.x0
            for mx in 0..<mw {
                let k = 1 - amount * cov[my * mw + mx]
                red.values[row + mx] *= k
                green.values[row + mx] *= k
                blue.values[row + mx] *= k
            }
        }
    }

    /// Blurs every plane (`PlaneBlur`, the same filter as `FloatCanvas.gaussianBlur`).
    public mutating func gaussianBlur(sigma: Double) {
        guard sigma > 0.05, width > 0, height > 0 else { return }
        let blur = PlaneBlur(sigma: sigma)
        var scratch: [Float] = [], row: [Float] = []
        let w = width, h = height
        blur.apply(&red.values, width: w, height: h, scratch: &scratch, row: &row)
        blur.apply(&green.values, width: w, height: h, scratch: &scratch, row: &row)
        blur.apply(&blue.values, width: w, height: h, scratch: &scratch, row: &row)
    }

    /// Light as the camera sees it, in one pass: a brightness ramp through the centre (`strength` towards
    /// `angle`, as `FloatCanvas.applyLightGradient`), lens vignetting (corners lose `vignette`, as
    /// `FloatCanvas.applyVignette`) and a per-channel gain (exposure and white balance).
    public mutating func applyLighting(angle: Double, strength: Double, vignette: Double, gain: RGBColor) {
        let w = width, h = height
        let cx = Double(w) / 2, cy = Double(h) / 2
        let half = max(1, (Double(w * w + h * h)).squareRoot() / 2)
        let dx = Float(cos(angle) * strength / half), dy = Float(sin(angle) * strength / half)
        let fcx = Float(cx), fcy = Float(cy)
        let inv = 1 / (fcx * fcx + fcy * fcy)
        let a = Float(vignette)
        for y in 0..<h {
            let py = Float(y) + 0.5 - fcy
            let rowTerm = 1 + dy * py
            let row = y * w
            for x in 0..<w {
                let px = Float(x) + 0.5 - fcx
                let f = max(0, rowTerm + dx * px) * (1 - a * (px * px + py * py) * inv)
                red.values[row + x] *= f * gain.r
                green.values[row + x] *= f * gain.g
                blue.values[row + x] *= f * gain.b
            }
        }
    }

    public mutating func applyLightGradient(angle: Double, strength: Double) {
        red.applyLightGradient(angle: angle, strength: strength)
        green.applyLightGradient(angle: angle, strength: strength)
        blue.applyLightGradient(angle: angle, strength: strength)
    }

    public mutating func applyVignette(amount: Double) {
        red.applyVignette(amount: amount)
        green.applyVignette(amount: amount)
        blue.applyVignette(amount: amount)
    }

    /// Per-channel gain (exposure times white balance) and a common offset.
    public mutating func applyGain(_ gain: RGBColor, offset: Float = 0) {
        red.applyGain(gain.r, offset: offset)
        green.applyGain(gain.g, offset: offset)
        blue.applyGain(gain.b, offset: offset)
    }

    /// A specular reflection: pulls every plane towards white (see `FloatCanvas.addGlare`).
    public mutating func addGlare(center: CanvasPoint, radiusX: Double, radiusY: Double, angle: Double, strength: Double, core: Double) {
        red.addGlare(center: center, radiusX: radiusX, radiusY: radiusY, angle: angle, strength: strength, core: core)
        green.addGlare(center: center, radiusX: radiusX, radiusY: radiusY, angle: angle, strength: strength, core: core)
        blue.addGlare(center: center, radiusX: radiusX, radiusY: radiusY, angle: angle, strength: strength, core: core)
    }

    /// Sensor noise: a grey part common to the planes (`sigma`) and a colour part per plane (`chroma`), both
    /// drawn from `NormalTable` (one random word gives four deviates).
    public mutating func addNoise(sigma: Float, chroma: Float, random: inout SampleRandom) {
        guard sigma > 0 || chroma > 0 else { return }
        let n = red.values.count
        let table = NormalTable.values
        let mask = UInt64(NormalTable.count - 1)
        for i in 0..<n {
            let bits = random.next()
            let common = sigma * table[Int(bits & mask)]
            red.values[i] += common + chroma * table[Int((bits >> 16) & mask)]
            green.values[i] += common + chroma * table[Int((bits >> 32) & mask)]
            blue.values[i] += common + chroma * table[Int((bits >> 48) & mask)]
        }
    }

    /// Interleaved 8-bit RGB, rounded and clamped.
    public func rgbBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: red.values.count * 3)
        out.withUnsafeMutableBufferPointer { dst in
            red.values.withUnsafeBufferPointer { r in
                green.values.withUnsafeBufferPointer { g in
                    blue.values.withUnsafeBufferPointer { b in
                        for i in 0..<r.count {
                            dst[3 * i] = Self.byte(r[i])
                            dst[3 * i + 1] = Self.byte(g[i])
                            dst[3 * i + 2] = Self.byte(b[i])
                        }
                    }
                }
            }
        }
        return out
    }

    @inline(__always)
    static func byte(_ v: Float) -> UInt8 { v.isNaN ? 0 : UInt8(min(255, max(0, v + 0.5))) }
}
