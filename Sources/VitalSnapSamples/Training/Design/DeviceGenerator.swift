import Foundation
import VitalSnapOCR

/// Builds a random `TrainingDevice`: a display look and layout for a kind of device, the window sized to its
/// contents, and a body around it with bezel, buttons, ports, logo and printed legends.
enum DeviceGenerator {
    /// Pseudo brand names for logos (no digits: printed digits would be text the reader should not read).
    static let brandParts = ["ACCU", "MEDI", "VITA", "SENSO", "OMNI", "CARE", "GLUCO", "PRO", "TECH", "LIFE", "SMART",
                             "BIO", "HEALTH", "SURE", "TRUE", "EASY", "CHECK", "PULSE", "THERM", "SELEC", "ELTRA"]

    static func random(_ program: DeviceProgram, parameters p: TrainingSceneParameters, random: inout SampleRandom) -> TrainingDevice {
        let allowed = p.displayKindFilter.map { only in program.displayKinds.filter { only.contains($0.value) } } ?? []
        let kind = random.pick(allowed.isEmpty ? program.displayKinds : allowed)
        let look = DisplayPalette.look(kind, parameters: p, random: &random)
        var layoutGenerator = DisplayLayoutGenerator(random: random.fork(), parameters: p, look: look)
        let layout = layoutGenerator.layout(for: program)
        let h = p.mainDigitHeight
        let size = layout.root.size

        // Window: the contents plus padding (tight on meters that show one line).
        let tight = program == .electricityMeter || program == .fuelPump || program == .panelMeter
        let padX = h * (tight ? random.uniform(0.1...0.35) : random.uniform(0.2...0.6))
        let padY = h * (tight ? random.uniform(0.08...0.3) : random.uniform(0.15...0.5))
        let ww = size.width + 2 * padX, wh = size.height + 2 * padY

        // Body margins around the window (left/right, top, bottom) as fractions of the window.
        let (side, top, bottom): (ClosedRange<Double>, ClosedRange<Double>, ClosedRange<Double>) = switch program {
        case .scale: (0.4...1.4, 0.3...1.0, 1.5...4.0)
        case .electricityMeter: (0.15...0.6, 0.5...2.0, 1.0...3.0)
        case .fuelPump: (0.3...1.5, 0.5...2.0, 1.5...4.0)
        case .panelMeter: (0.08...0.3, 0.15...0.6, 0.4...1.4)
        case .multimeter: (0.1...0.25, 0.3...0.7, 1.5...3.0)
        default: (0.06...0.35, 0.15...0.7, 0.4...1.6)
        }
        let stick = program == .thermometer && random.chance(0.45)
        var left = ww * random.uniform(side), right = ww * random.uniform(side)
        var topMargin = wh * random.uniform(top), bottomMargin = wh * random.uniform(bottom)
        if stick {
            // A stick thermometer: window on the handle, probe to the left.
            left = ww * random.uniform(1.2...1.8)
            right = ww * random.uniform(0.2...0.4)
            topMargin = wh * random.uniform(0.2...0.4)
            bottomMargin = topMargin
        }
        if !layout.bodyLegends.isEmpty {
            bottomMargin = max(bottomMargin, layout.bodyLegends.reduce(0) { $0 + $1.size * 2.2 } + wh * 0.2)
        }
        let W = left + ww + right, H = topMargin + wh + bottomMargin
        let window = QuadCorners(x: left, y: topMargin, width: ww, height: wh)

        var ops: [PaintOp] = []
        var elements: [DeviceTextElement] = []
        let bodyColor = DisplayPalette.jitter(bodyColor(for: program, random: &random), by: 10, random: &random)
        let outline: [CanvasPoint]
        if stick {
            outline = DeviceRenderer.bodyOutline(.stick, width: W, height: H)
        } else {
            let radius = min(W, H) * (program == .panelMeter || program == .fuelPump || program == .electricityMeter
                ? random.uniform(0.0...0.06) : random.uniform(0.05...0.45))
            outline = Shapes.roundedRectangle(x: 0, y: 0, width: W, height: H, radius: radius)
        }
        // Body with its light-to-dark shading, and a darker rim.
        let shading = Float(random.uniform(0.04...0.25))
        let vertical = random.chance(0.7)
        ops.append(PaintOp(
            shapes: [[outline]],
            paint: .gradient(bodyColor.scaled(1 + shading / 2), vertical ? CanvasPoint(W / 2, 0) : CanvasPoint(0, H / 2),
                             bodyColor.scaled(1 - shading / 2), vertical ? CanvasPoint(W / 2, H) : CanvasPoint(W, H / 2))))
        let rim = max(0.5, min(W, H) * 0.012)
        ops.append(PaintOp(
            shapes: [[outline, outline.map { p in CanvasPoint(W / 2 + (p.x - W / 2) * (1 - 2 * rim / W), H / 2 + (p.y - H / 2) * (1 - 2 * rim / H)) }]],
            paint: .solid(bodyColor.scaled(0.7)), opacity: 0.8))

        let printColor = bodyColor.luma > 110 ? RGBColor.grey(Float(random.uniform(20...90))) : RGBColor.grey(Float(random.uniform(180...240)))
        addBodyMarks(
            program: program, stick: stick, window: window, width: W, height: H, bodyColor: bodyColor, printColor: printColor,
            legends: layout.bodyLegends, ops: &ops, elements: &elements, random: &random)

        // Bezel and window.
        let bezelMargin = min(ww, wh) * random.uniform(0.02...0.14)
        let bezelColor: RGBColor = random.chance(0.6)
            ? RGBColor.grey(Float(random.uniform(15...70))) : (random.chance(0.5) ? bodyColor.scaled(0.75) : RGBColor.grey(Float(random.uniform(150...200))))
        ops.append(PaintOp(
            shapes: [[Shapes.roundedRectangle(
                x: left - bezelMargin, y: topMargin - bezelMargin, width: ww + 2 * bezelMargin, height: wh + 2 * bezelMargin,
                radius: bezelMargin * random.uniform(0.5...2.5))]],
            paint: .solid(bezelColor)))
        let windowShape = Shapes.roundedRectangle(x: left, y: topMargin, width: ww, height: wh, radius: min(ww, wh) * random.uniform(0...0.06))
        let edgeAtTop = random.chance(0.6)
        ops.append(PaintOp(
            shapes: [[windowShape]],
            paint: .gradient(
                edgeAtTop ? look.backgroundEdge : look.background, CanvasPoint(left + ww / 2, topMargin),
                edgeAtTop ? look.background : look.backgroundEdge, CanvasPoint(left + ww / 2, topMargin + wh * random.uniform(0.3...1.2)))))

        for element in layout.root.placed(x: left + padX, y: topMargin + padY) {
            paint(element, look: look, ops: &ops, elements: &elements)
        }
        if look.reflection > 0 {
            let a = random.uniform(0...0.6)
            ops.append(PaintOp(
                shapes: [[[CanvasPoint(left + ww * a, topMargin), CanvasPoint(left + ww * (a + 0.25), topMargin),
                           CanvasPoint(left + ww * (a + 0.05), topMargin + wh), CanvasPoint(left + ww * (a - 0.2), topMargin + wh)]]],
                paint: .solid(.white), opacity: look.reflection))
        }
        return TrainingDevice(
            program: program, look: look, font: layoutGenerator.font, width: W, height: H, outline: outline, window: window,
            ops: ops, elements: elements, bodyColor: bodyColor, mainDigitHeight: h)
    }

    static func bodyColor(for program: DeviceProgram, random: inout SampleRandom) -> RGBColor {
        switch program {
        case .fuelPump: random.pick([RGBColor(236, 236, 232), RGBColor(214, 216, 214), RGBColor(60, 62, 66), RGBColor(200, 40, 40)])
        case .panelMeter: random.pick([RGBColor(25, 26, 28), RGBColor(50, 52, 56), RGBColor(200, 200, 196), RGBColor(225, 222, 210)])
        case .multimeter: random.pick([RGBColor(236, 196, 40), RGBColor(240, 140, 30), RGBColor(60, 64, 70), RGBColor(40, 96, 190), RGBColor(200, 40, 40)])
        case .electricityMeter: random.pick([RGBColor(226, 226, 220), RGBColor(90, 94, 100), RGBColor(30, 30, 34), RGBColor(200, 204, 210)])
        default: random.pick(DisplayPalette.bodies)
        }
    }

    /// Logo, buttons, port, dial, screws and printed legends on the body.
    static func addBodyMarks(
        program: DeviceProgram, stick: Bool, window: QuadCorners, width W: Double, height H: Double, bodyColor: RGBColor,
        printColor: RGBColor, legends: [LabelSpec], ops: inout [PaintOp], elements: inout [DeviceTextElement], random: inout SampleRandom
    ) {
        let wb = window.bounds
        let ww = wb.maxX - wb.minX, wh = wb.maxY - wb.minY
        // Printed legends under the window, centred (a fuel pump's LITRES, a panel meter's unit).
        var penY = wb.maxY + wh * 0.25
        for legend in legends {
            let width = StrokeFont.width(of: legend.text, size: legend.size)
            var spec = legend
            if spec.color.luma < 128 && bodyColor.luma < 100 { spec.color = RGBColor.grey(230) }
            addLabel(spec, x: wb.minX + (ww - width) / 2, y: penY, background: bodyColor, ops: &ops, elements: &elements)
            penY += legend.size * 2
        }
        // Logo above the window or at the bottom.
        if random.chance(0.75) {
            let text = random.pick(brandParts) + (random.chance(0.5) ? random.pick(brandParts) : "")
            let size = min(wh * random.uniform(0.1...0.3), ww * 0.8 / max(1, StrokeFont.width(of: text, size: 1)))
            let spaceAbove = wb.minY
            let y = spaceAbove > size * 2.2 ? (spaceAbove - size) / 2 : penY
            if y + size < H - 1 && size > 1 {
                let x = random.chance(0.5) ? wb.minX : wb.minX + (ww - StrokeFont.width(of: text, size: size)) / 2
                let color = random.chance(0.3) ? random.pick([RGBColor(30, 80, 180), RGBColor(190, 40, 40), RGBColor(235, 150, 40)]) : printColor
                addLabel(LabelSpec(text: text, size: size, color: color, weight: random.uniform(0.12...0.22), plate: nil),
                         x: x, y: y, background: bodyColor, ops: &ops, elements: &elements)
                if y >= penY { penY = y + size * 2 }
            }
        }
        guard !stick else { return }
        // Buttons in the space below the window.
        let below = H - penY
        if below > wh * 0.35 {
            let count = random.int(1...3)
            let r = min(below * random.uniform(0.15...0.3), ww / Double(2 * count + 1))
            let cy = penY + below * random.uniform(0.35...0.55)
            let buttonColor = random.chance(0.5) ? bodyColor.scaled(0.82) : random.pick(DisplayPalette.bodies)
            var shapes: [[[CanvasPoint]]] = []
            for i in 0..<count {
                let cx = wb.minX + ww * (Double(i) + 0.5) / Double(count)
                shapes.append([Shapes.ellipse(center: CanvasPoint(cx, cy), radiusX: r * (program == .multimeter ? 1 : random.uniform(1...1.8)), radiusY: r)])
            }
            if program == .multimeter {
                shapes = [[Shapes.ellipse(center: CanvasPoint(W / 2, cy), radiusX: below * 0.3, radiusY: below * 0.3)]]
            }
            ops.append(PaintOp(shapes: shapes, paint: .solid(buttonColor)))
            ops.append(PaintOp(shapes: shapes.map { [$0[0].map { CanvasPoint($0.x, $0.y - r * 0.12) }] }, paint: .solid(buttonColor.scaled(1.12)), opacity: 0.5))
        }
        // A strip port or sensor opening at the bottom edge.
        if program == .glucose && random.chance(0.7) {
            ops.append(PaintOp(
                shapes: [[Shapes.roundedRectangle(x: W * 0.38, y: H - H * 0.035, width: W * 0.24, height: H * 0.02, radius: H * 0.008)]],
                paint: .solid(RGBColor.grey(20))))
        }
        // Screws in the corners of panels.
        if program == .panelMeter || program == .electricityMeter, random.chance(0.6) {
            let r = min(W, H) * 0.025
            let shapes = [(0.06, 0.06), (0.94, 0.06), (0.06, 0.94), (0.94, 0.94)].map { (fx, fy) in
                [Shapes.ellipse(center: CanvasPoint(W * fx, H * fy), radiusX: r, radiusY: r)]
            }
            ops.append(PaintOp(shapes: shapes, paint: .solid(RGBColor.grey(150))))
        }
    }

    /// A printed label with its `unit` element.
    static func addLabel(
        _ spec: LabelSpec, x: Double, y: Double, background: RGBColor, ops: inout [PaintOp], elements: inout [DeviceTextElement]
    ) {
        let width = StrokeFont.width(of: spec.text, size: spec.size)
        var ink = spec.color
        var field = background
        var textX = x, textY = y
        if let plate = spec.plate {
            let pad = spec.size * 0.5
            ops.append(PaintOp(
                shapes: [[Shapes.roundedRectangle(x: x, y: y, width: width + 2 * pad, height: spec.size + pad, radius: pad * 0.5)]],
                paint: .solid(plate)))
            textX += pad
            textY += pad / 2
            field = plate
            ink = spec.color
        }
        let polygons = StrokeFont.polygons(spec.text, x: textX, y: textY, size: spec.size, strokeWidth: max(0.3, spec.weight * spec.size))
        ops.append(PaintOp(shapes: polygons.map { [$0] }, paint: .solid(ink)))
        let box = QuadCorners(x: textX, y: textY, width: max(1e-3, width), height: spec.size)
        elements.append(DeviceTextElement(
            role: .unit, field: nil, text: spec.text, quad: box, cells: [box], strokeWidth: spec.weight * spec.size,
            ink: ink, background: field, fieldBox: box))
    }

    /// Paints one placed element of the display and records its annotation.
    static func paint(_ element: PlacedElement, look: DisplayLook, ops: inout [PaintOp], elements: inout [DeviceTextElement]) {
        switch element {
        case .rule(let x, let y, let w, let h, let color):
            ops.append(PaintOp(shapes: [[Shapes.rectangle(x: x, y: y, width: w, height: h)]], paint: .solid(color)))
        case .label(let spec, let x, let y):
            addLabel(spec, x: x, y: y, background: look.background, ops: &ops, elements: &elements)
        case .icon(let spec, let x, let y):
            ops.append(PaintOp(shapes: IconShapes.shapes(spec, x: x, y: y), paint: .solid(spec.color)))
            let box = QuadCorners(x: x, y: y, width: spec.width, height: spec.height)
            elements.append(DeviceTextElement(
                role: .icon, field: nil, text: "", quad: box, cells: [box], strokeWidth: min(spec.width, spec.height) * 0.12,
                ink: spec.color, background: look.background, fieldBox: box))
        case .line(let spec, let x, let y):
            let geometry = TextLineGeometry(spec, x: x, y: y)
            if look.ghost > 0 && !geometry.ghosts.isEmpty {
                ops.append(PaintOp(shapes: geometry.ghosts.map { [$0] }, paint: .solid(look.background.mixed(with: spec.color, look.ghost))))
            }
            if look.segmentShadow > 0 {
                let d = look.segmentShadow * spec.digitHeight
                ops.append(PaintOp(
                    shapes: geometry.lit.map { [$0.map { CanvasPoint($0.x + d, $0.y + d) }] },
                    paint: .solid(look.background.scaled(0.6)), opacity: 0.45))
            }
            ops.append(PaintOp(shapes: geometry.lit.map { [$0] }, paint: .solid(spec.color)))
            if look.glow > 0 {
                ops.append(PaintOp(
                    shapes: geometry.lit.map { [$0] },
                    paint: .glow(spec.color, amount: look.glow, sigma: max(0.3, look.glowSpread * geometry.strokeWidth))))
            }
            guard !spec.text.isEmpty else { return }
            elements.append(DeviceTextElement(
                role: spec.role, field: spec.field, text: spec.text, quad: geometry.quad, cells: geometry.cells,
                strokeWidth: geometry.strokeWidth, ink: spec.color, background: look.background,
                fieldBox: QuadCorners(x: x, y: y, width: TextLineGeometry.width(of: spec), height: spec.digitHeight)))
        }
    }
}
