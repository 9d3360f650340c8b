import Foundation

/// The surroundings of a training scene in colour: a surface (the grey renderer's wood, wall and cloth
/// textures, coloured; plain desks; industrial panels) and clutter with printed text and other objects.
enum TrainingBackground {
    enum Surface: String, CaseIterable {
        case wood, wall, cloth, desk, panel
    }

    static let woodColors = [RGBColor(150, 100, 60), RGBColor(190, 150, 100), RGBColor(95, 62, 40), RGBColor(175, 120, 75), RGBColor(120, 80, 50)]
    static let wallColors = [RGBColor(220, 210, 190), RGBColor(235, 235, 232), RGBColor(160, 160, 160), RGBColor(190, 205, 220), RGBColor(215, 200, 170), RGBColor(90, 90, 95)]
    static let clothColors = [RGBColor(40, 60, 130), RGBColor(150, 40, 50), RGBColor(50, 110, 70), RGBColor(130, 130, 135), RGBColor(200, 190, 170), RGBColor(30, 30, 35), RGBColor(180, 120, 160)]
    static let deskColors = [RGBColor(240, 240, 238), RGBColor(35, 35, 38), RGBColor(120, 122, 125), RGBColor(200, 196, 186)]
    static let panelColors = [RGBColor(200, 200, 196), RGBColor(225, 222, 210), RGBColor(150, 152, 156), RGBColor(60, 64, 70)]

    /// Letters the stroke font draws, for the words on papers and boxes (no digits: printed numbers would be
    /// text that the annotations do not list).
    static let letters = Array("ABCDEFGHIJKLMNOPRSTUVWXYZabdeghiklmnoprstuwxy")

    /// Frames with a longer side than this get their surface texture computed at half size and enlarged (the
    /// textures are smooth, and per-pixel wood grain is the costliest step of a scene).
    static let fullResolutionTextureLimit = 480

    static func paint(width fullWidth: Int, height fullHeight: Int, surface: Surface, random: inout SampleRandom) -> (ColorCanvas, RGBColor) {
        let shade = 140.0
        let color: RGBColor
        var texture: FloatCanvas
        let halve = max(fullWidth, fullHeight) > fullResolutionTextureLimit
        let width = halve ? (fullWidth + 1) / 2 : fullWidth, height = halve ? (fullHeight + 1) / 2 : fullHeight
        switch surface {
        case .wood:
            color = DisplayPalette.jitter(random.pick(woodColors), by: 12, random: &random)
            texture = BackgroundPainter.wood(shade: shade, width: width, height: height, random: &random)
        case .wall:
            color = DisplayPalette.jitter(random.pick(wallColors), by: 10, random: &random)
            texture = BackgroundPainter.wall(shade: shade, width: width, height: height, random: &random)
        case .cloth:
            color = DisplayPalette.jitter(random.pick(clothColors), by: 15, random: &random)
            texture = BackgroundPainter.cloth(shade: shade, width: width, height: height, random: &random)
        case .desk, .panel:
            color = DisplayPalette.jitter(random.pick(surface == .desk ? deskColors : panelColors), by: 8, random: &random)
            var t = FloatCanvas(width: width, height: height, fill: Float(shade))
            t.add(FloatCanvas.valueNoise(width: width, height: height, cellSize: Double(max(width, height)) / 3, random: &random), amount: 6)
            texture = t
        }
        if halve { texture = enlarged(texture, width: fullWidth, height: fullHeight) }
        var canvas = ColorCanvas(texture: texture, shade: Float(shade), color: color)
        if surface == .panel { addPanelSeams(&canvas, color: color, random: &random) }
        return (canvas, color)
    }

    /// `small` enlarged twice (bilinear, pixel centres aligned) and cut to `width x height`.
    static func enlarged(_ small: FloatCanvas, width: Int, height: Int) -> FloatCanvas {
        var out = FloatCanvas(width: width, height: height)
        let sw = small.width, sh = small.height
        let src = small.values
        for y in 0..<height {
            let sy = max(0, (Double(y) + 0.5) / 2 - 0.5)
            let y0 = min(sh - 1, Int(sy)), y1 = min(sh - 1, y0 + 1)
            let ty = Float(sy - Double(y0))
            for x in 0..<width {
                let sx = max(0, (Double(x) + 0.5) / 2 - 0.5)
                let x0 = min(sw - 1, Int(sx)), x1 = min(sw - 1, x0 + 1)
                let tx = Float(sx - Double(x0))
                let top = src[y0 * sw + x0] + (src[y0 * sw + x1] - src[y0 * sw + x0]) * tx
                let bottom = src[y1 * sw + x0] + (src[y1 * sw + x1] - src[y1 * sw + x0]) * tx
                out.values[y * width + x] = top + (bottom - top) * ty
            }
        }
        return out
    }

    /// Seams, a cut-out edge and screws of an industrial cabinet.
    static func addPanelSeams(_ canvas: inout ColorCanvas, color: RGBColor, random: inout SampleRandom) {
        let w = Double(canvas.width), h = Double(canvas.height)
        var shapes: [[[CanvasPoint]]] = []
        for _ in 0..<random.int(1...3) {
            if random.chance(0.5) {
                let x = random.uniform(0...w)
                shapes.append([Shapes.rectangle(x: x, y: 0, width: max(1, w * 0.004), height: h)])
            } else {
                let y = random.uniform(0...h)
                shapes.append([Shapes.rectangle(x: 0, y: y, width: w, height: max(1, h * 0.004))])
            }
        }
        fill(&canvas, shapes, color.scaled(0.55))
        var screws: [[[CanvasPoint]]] = []
        for _ in 0..<random.int(0...4) {
            let r = max(w, h) * random.uniform(0.006...0.012)
            screws.append([Shapes.ellipse(center: CanvasPoint(random.uniform(0...w), random.uniform(0...h)), radiusX: r, radiusY: r)])
        }
        fill(&canvas, screws, RGBColor.grey(170))
    }

    /// Things lying around: papers with printed words, pens, mugs, phones, boxes with a label, cables.
    static func addClutter(_ canvas: inout ColorCanvas, count: Int, random: inout SampleRandom) {
        let w = Double(canvas.width), h = Double(canvas.height)
        let s = max(w, h)
        for _ in 0..<count {
            let c = CanvasPoint(random.uniform(0...w), random.uniform(0...h))
            let angle = random.uniform(0...Double.pi)
            switch random.int(0...5) {
            case 0, 1:  // Paper with lines of words.
                let pw = s * random.uniform(0.25...0.5), ph = pw * random.uniform(1.2...1.45)
                let paper = RGBColor.grey(Float(random.uniform(215...248))).mixed(with: RGBColor(250, 240, 210), Float(random.uniform(0...0.4)))
                fill(&canvas, [[rotated(Shapes.rectangle(x: -pw / 2, y: -ph / 2, width: pw, height: ph), angle, c)]], paper)
                let size = max(2.5, pw * random.uniform(0.018...0.04))
                let ink = random.chance(0.8) ? RGBColor.grey(Float(random.uniform(20...70))) : RGBColor(30, 50, 140)
                var polygons: [[[CanvasPoint]]] = []
                var y = -ph / 2 + ph * 0.08
                while y < ph / 2 - ph * 0.08 - size {
                    var x = -pw / 2 + pw * 0.08
                    let end = -pw / 2 + pw * random.uniform(0.6...0.92)
                    while x < end {
                        let word = String((0..<random.int(2...8)).map { _ in random.pick(letters) })
                        let ww = StrokeFont.width(of: word, size: size)
                        guard x + ww < pw / 2 - pw * 0.06 else { break }
                        for polygon in StrokeFont.polygons(word, x: x, y: y, size: size, strokeWidth: max(0.5, size * 0.13)) {
                            polygons.append([rotated(polygon, angle, c)])
                        }
                        x += ww + size * 0.8
                    }
                    y += size * random.uniform(1.8...2.6)
                }
                fill(&canvas, polygons, ink, opacity: 0.85)
            case 2:  // Pen.
                let len = s * random.uniform(0.2...0.4), pw = s * random.uniform(0.01...0.018)
                let d = CanvasPoint(cos(angle) * len / 2, sin(angle) * len / 2)
                let color = random.pick([RGBColor(30, 40, 120), RGBColor(20, 20, 22), RGBColor(180, 30, 30), RGBColor(230, 230, 230)])
                fill(&canvas, [[Shapes.line(from: c - d, to: c + d, width: pw)]], color)
                fill(&canvas, [[Shapes.line(from: c - d * 0.9, to: c + d * 0.9, width: pw * 0.25)]], color.mixed(with: .white, 0.4), opacity: 0.5)
            case 3:  // Mug or coaster from above.
                let r = s * random.uniform(0.05...0.1)
                let color = random.pick(DisplayPalette.bodies)
                fill(&canvas, [[Shapes.ellipse(center: c, radiusX: r, radiusY: r)]], color.scaled(0.8))
                fill(&canvas, [[Shapes.ellipse(center: c, radiusX: r * 0.84, radiusY: r * 0.84)]], color)
                fill(&canvas, [[Shapes.ellipse(center: c, radiusX: r * 0.7, radiusY: r * 0.7)]], RGBColor(60, 35, 20), opacity: 0.85)
            case 4:  // Phone: dark slab, a lighter edge.
                let pw = s * random.uniform(0.08...0.13), ph = pw * 2
                fill(&canvas, [[rotated(Shapes.roundedRectangle(x: -pw / 2, y: -ph / 2, width: pw, height: ph, radius: pw * 0.15), angle, c)]], RGBColor.grey(28))
                fill(&canvas, [[rotated(Shapes.roundedRectangle(x: -pw / 2 + 2, y: -ph / 2 + 2, width: pw - 4, height: ph - 4, radius: pw * 0.12), angle, c)]], RGBColor(40, 44, 52))
            default:  // A box with a printed name, or a cable.
                if random.chance(0.5) {
                    let bw = s * random.uniform(0.12...0.25), bh = bw * random.uniform(0.4...0.8)
                    let color = random.pick(DisplayPalette.bodies)
                    fill(&canvas, [[rotated(Shapes.rectangle(x: -bw / 2, y: -bh / 2, width: bw, height: bh), angle, c)]], color)
                    let word = String((0..<random.int(3...7)).map { _ in random.pick(letters) }).uppercased()
                    let size = min(bh * 0.3, bw * 0.8 / max(1, StrokeFont.width(of: word, size: 1)))
                    let tw = StrokeFont.width(of: word, size: size)
                    let polygons = StrokeFont.polygons(word, x: -tw / 2, y: -size / 2, size: size, strokeWidth: max(0.6, size * 0.16))
                    fill(&canvas, polygons.map { [rotated($0, angle, c)] }, color.luma > 120 ? RGBColor.grey(30) : RGBColor.grey(235))
                } else {
                    var points: [CanvasPoint] = [c]
                    var a = angle
                    for _ in 0..<8 {
                        a += random.uniform(-0.6...0.6)
                        points.append(points[points.count - 1] + CanvasPoint(cos(a), sin(a)) * (s * 0.06))
                    }
                    let width = s * random.uniform(0.004...0.01)
                    let color = random.pick([RGBColor.grey(25), RGBColor.grey(230), RGBColor(200, 40, 40)])
                    fill(&canvas, zip(points, points.dropFirst()).map { [Shapes.line(from: $0, to: $1, width: width)] }, color)
                }
            }
        }
    }

    static func fill(_ canvas: inout ColorCanvas, _ shapes: [[[CanvasPoint]]], _ color: RGBColor, opacity: Float = 1) {
        guard let mask = CoverageMask(covering: shapes, canvasWidth: canvas.width, canvasHeight: canvas.height) else { return }
        canvas.blend(mask, color: color, opacity: opacity)
    }

    static func rotated(_ polygon: [CanvasPoint], _ angle: Double, _ center: CanvasPoint) -> [CanvasPoint] {
        let ca = cos(angle), sa = sin(angle)
        return polygon.map { CanvasPoint(center.x + $0.x * ca - $0.y * sa, center.y + $0.x * sa + $0.y * ca) }
    }
}
