import Foundation

/// The surroundings of the device: the surface it lies on and what else lies there.
///
/// Readers that look for the display in a whole photo must not be fooled by wood grain, woven fabric or a
/// sheet of printed paper, so each of these is drawn with its characteristic texture.
enum BackgroundPainter {
    static func paint(
        _ style: SceneParameters.Background, shade: Double, width: Int, height: Int, random: inout SampleRandom
    ) -> FloatCanvas {
        switch style {
        case .table: return wood(shade: shade, width: width, height: height, random: &random)
        case .wall: return wall(shade: shade, width: width, height: height, random: &random)
        case .cloth: return cloth(shade: shade, width: width, height: height, random: &random)
        case .clutter:
            var canvas = random.chance(0.5)
                ? wood(shade: shade, width: width, height: height, random: &random)
                : wall(shade: shade, width: width, height: height, random: &random)
            addClutter(&canvas, random: &random)
            return canvas
        }
    }

    /// Wood grain: stripes along a random direction, wobbling, with fine fibres and plank seams.
    static func wood(shade: Double, width: Int, height: Int, random: inout SampleRandom) -> FloatCanvas {
        var canvas = FloatCanvas(width: width, height: height)
        let wobble = NoiseField(random: &random), fibres = NoiseField(random: &random)
        let angle = random.uniform(-0.5...0.5) + (random.chance(0.5) ? 0 : Double.pi / 2)
        let ca = cos(angle), sa = sin(angle)
        let period = random.uniform(14...40) * Double(max(width, height)) / 640
        let plank = random.uniform(0.25...0.5) * Double(max(width, height))
        let seamOffset = random.uniform(0...plank)
        let base = Float(shade)
        let scale = Double(max(width, height)) / 640
        canvas.values.withUnsafeMutableBufferPointer { buf in
            for y in 0..<height {
                for x in 0..<width {
                    let along = Double(x) * ca + Double(y) * sa
                    let across = -Double(x) * sa + Double(y) * ca
                    let w = wobble.value(along / (260 * scale), across / (90 * scale))
                    let ring = sin(2 * Double.pi * (across / period + 1.4 * Double(w)))
                    let fibre = fibres.value(along / (70 * scale), across / (2.5 * scale))
                    var v = base * (1 + 0.07 * Float(ring) + 0.05 * fibre)
                    // Plank seams: a narrow dark line every `plank` pixels across the grain.
                    let m = (across + seamOffset).truncatingRemainder(dividingBy: plank)
                    let toSeam = min(abs(m), plank - abs(m))
                    if toSeam < 1.5 * scale { v *= 0.6 + 0.25 * Float(toSeam / (1.5 * scale)) }
                    buf[y * width + x] = v
                }
            }
        }
        return canvas
    }

    /// A smooth surface: slow blotches and a falloff.
    static func wall(shade: Double, width: Int, height: Int, random: inout SampleRandom) -> FloatCanvas {
        var canvas = FloatCanvas(width: width, height: height, fill: Float(shade))
        let blotches = FloatCanvas.valueNoise(width: width, height: height, cellSize: Double(max(width, height)) / 4, random: &random)
        canvas.add(blotches, amount: Float(shade) * 0.08)
        canvas.applyLightGradient(angle: random.uniform(0...(2 * Double.pi)), strength: random.uniform(0.05...0.25))
        return canvas
    }

    /// Woven fabric: a fine criss-cross pattern with soft folds.
    static func cloth(shade: Double, width: Int, height: Int, random: inout SampleRandom) -> FloatCanvas {
        var canvas = FloatCanvas(width: width, height: height)
        let folds = NoiseField(random: &random)
        let period = random.uniform(3.5...6)
        let angle = random.uniform(0...Double.pi)
        let ca = cos(angle), sa = sin(angle)
        let foldScale = Double(max(width, height)) / 5
        let base = Float(shade)
        canvas.values.withUnsafeMutableBufferPointer { buf in
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x) * ca + Double(y) * sa, v = -Double(x) * sa + Double(y) * ca
                    let weave = Float(sin(2 * Double.pi * u / period) * sin(2 * Double.pi * v / period))
                    let fold = folds.value(u / foldScale, v / (foldScale * 0.5))
                    buf[y * width + x] = base * (1 + 0.05 * weave + 0.16 * fold)
                }
            }
        }
        return canvas
    }

    /// Other things on the table: sheets of printed paper, a pen, a mug seen from above, a phone.
    static func addClutter(_ canvas: inout FloatCanvas, random: inout SampleRandom) {
        let w = Double(canvas.width), h = Double(canvas.height)
        let s = max(w, h)
        for _ in 0..<random.int(2...5) {
            let c = CanvasPoint(random.uniform(0...w), random.uniform(0...h))
            let angle = random.uniform(0...Double.pi)
            switch random.int(0...3) {
            case 0:  // Paper with lines of print.
                let pw = s * random.uniform(0.3...0.5), ph = pw * 1.35
                let shade = Float(random.uniform(200...240))
                canvas.fill(rotated(Shapes.rectangle(x: -pw / 2, y: -ph / 2, width: pw, height: ph), angle, c), value: shade)
                let lineH = max(1, s * 0.004)
                var y = -ph / 2 + ph * 0.08
                while y < ph / 2 - ph * 0.08 {
                    let len = pw * random.uniform(0.5...0.84)
                    canvas.fill(
                        rotated(Shapes.rectangle(x: -pw / 2 + pw * 0.08, y: y, width: len, height: lineH), angle, c),
                        value: shade * 0.55, opacity: 0.8)
                    y += lineH * random.uniform(3.5...5)
                }
            case 1:  // Pen.
                let len = s * random.uniform(0.25...0.45), pw = s * random.uniform(0.012...0.02)
                let shade = Float(random.uniform(25...90))
                let d = CanvasPoint(cos(angle) * len / 2, sin(angle) * len / 2)
                canvas.fill(Shapes.line(from: c - d, to: c + d, width: pw), value: shade)
                canvas.fill(Shapes.line(from: c - d * 0.9, to: c + d * 0.9, width: pw * 0.25), value: min(255, shade + 60), opacity: 0.5)
            case 2:  // Mug or coaster from above: a ring.
                let r = s * random.uniform(0.06...0.11)
                let shade = Float(random.uniform(60...230))
                canvas.fill(Shapes.ellipse(center: c, radiusX: r, radiusY: r), value: shade * 0.8)
                canvas.fill(Shapes.ellipse(center: c, radiusX: r * 0.84, radiusY: r * 0.84), value: shade)
                canvas.fill(Shapes.ellipse(center: c, radiusX: r * 0.7, radiusY: r * 0.7), value: shade * 0.45, opacity: 0.8)
            default:  // Phone: dark slab with a lighter screen edge.
                let pw = s * random.uniform(0.1...0.14), ph = pw * 2
                canvas.fill(rotated(Shapes.roundedRectangle(x: -pw / 2, y: -ph / 2, width: pw, height: ph, radius: pw * 0.15), angle, c), value: 30)
                canvas.fill(
                    rotated(Shapes.roundedRectangle(x: -pw / 2 + 3, y: -ph / 2 + 3, width: pw - 6, height: ph - 6, radius: pw * 0.12), angle, c),
                    value: 45)
            }
        }
    }

    private static func rotated(_ polygon: [CanvasPoint], _ angle: Double, _ center: CanvasPoint) -> [CanvasPoint] {
        let ca = cos(angle), sa = sin(angle)
        return polygon.map { CanvasPoint(center.x + $0.x * ca - $0.y * sa, center.y + $0.x * sa + $0.y * ca) }
    }
}
