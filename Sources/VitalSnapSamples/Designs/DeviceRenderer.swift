import Foundation
import VitalSnapOCR

/// A device drawn flat and square-on, ready to be placed into a photo.
public struct DeviceLayer: Sendable {
    /// Grey levels of the device.
    public var image: FloatCanvas
    /// Coverage of the device (1 on the body, 0 outside, fractional on the anti-aliased edge).
    public var mask: FloatCanvas
    /// The display window, in layer pixels.
    public var display: QuadCorners
    /// Each field's box, in layer pixels.
    public var fieldBoxes: [FieldName: QuadCorners]
    /// The outlines of the digit cells of measurement fields that show something (where glare hides digits).
    public var litDigitCells: [QuadCorners]
}

/// Renders a `MeterDesign` showing some `DisplayContent` at a given pixel width.
///
/// Everything is placed from the definition's overlay geometry: the layer is the overlay's rectangle (so
/// its aspect ratio is `overlay.aspectRatio`), the display window is `overlay.display`, and each field sits at
/// its `box` inside the window.
public enum DeviceRenderer {
    public static func render(
        _ design: MeterDesign, content: DisplayContent, width: Int, ghostLevel: Double
    ) -> DeviceLayer {
        let def = design.definition
        let W = Double(max(8, width))
        let H = (W / def.overlay.aspectRatio).rounded()
        var image = FloatCanvas(width: Int(W), height: Int(H), fill: 0)
        var mask = FloatCanvas(width: Int(W), height: Int(H), fill: 0)

        // Body, its uneven shading and its rim.
        let outline = bodyOutline(design.body, width: W, height: H)
        image.fill(outline, value: design.bodyShade)
        mask.fill(outline, value: 1)
        shadeRows(&image, y0: 0, y1: Int(H), top: 1 + design.bodyShading / 2, bottom: 1 - design.bodyShading / 2)
        if design.body == .stick { drawProbeTip(&image, width: W, height: H) }
        let rimWidth = max(1.0, min(W, H) * 0.012)
        for (a, b) in zip(outline, outline.dropFirst() + [outline[0]]) {
            image.fill(Shapes.line(from: a, to: b, width: rimWidth), value: design.rimShade, opacity: 0.8)
        }

        for decoration in design.bodyDecorations {
            let r = decoration.box
            DecorationPainter.draw(
                decoration, x: r.x * W, y: r.y * H, width: r.width * W, height: r.height * H,
                shade: decoration.shade ?? design.bodyShade * 0.6, background: design.bodyShade, on: &image)
        }

        // Bezel and display window.
        let d = def.overlay.display
        let dx = d.x * W, dy = d.y * H, dw = d.width * W, dh = d.height * H
        let margin = design.bezelMargin * min(dw, dh)
        image.fill(
            Shapes.roundedRectangle(x: dx - margin, y: dy - margin, width: dw + 2 * margin, height: dh + 2 * margin, radius: margin * 1.3),
            value: design.bezelShade)
        image.fill(
            Shapes.roundedRectangle(x: dx, y: dy, width: dw, height: dh, radius: min(dw, dh) * 0.03), value: design.displayShade)
        if design.darkOnLight {
            // The LCD sits recessed behind the bezel, which shades its top edge.
            shadeRows(&image, y0: Int(dy), y1: Int(dy + dh * 0.12), top: 0.84, bottom: 1, x0: Int(dx), x1: Int(dx + dw))
        }

        // Fields.
        var fieldBoxes: [FieldName: QuadCorners] = [:]
        var litCells: [QuadCorners] = []
        var litPolygons: [[CanvasPoint]] = []
        for field in def.fields {
            guard let box = field.box else { continue }
            let fx = dx + box.x * dw, fy = dy + box.y * dh, fw = box.width * dw, fh = box.height * dh
            fieldBoxes[field.name] = QuadCorners(x: fx, y: fy, width: fw, height: fh)
            let painter = FieldPainter(
                style: field.name.isMeasurement ? design.segmentStyle : design.smallSegmentStyle,
                ink: design.inkShade, background: design.displayShade, ghostLevel: Float(ghostLevel),
                letterI: design.letterI)
            let text = content.texts[field.name] ?? ""
            let cells = FieldCells.layout(text, cellCount: field.digits, letterI: design.letterI)
                ?? Array(repeating: DisplayCell(" "), count: field.digits)
            let decimals = field.units.first?.decimals ?? 0
            litPolygons += painter.draw(
                cells, x: fx, y: fy, width: fw, height: fh, on: &image,
                showsPoints: field.name.isMeasurement && decimals > 0, showsColon: field.name == .time)
            if field.name.isMeasurement {
                let hasSeparators = cells.contains { $0.separatorAfter != nil }
                let glyphs = painter.glyphs(x: fx, y: fy, width: fw, height: fh, cellCount: cells.count, roomForSeparators: hasSeparators).glyphs
                for (cell, glyph) in zip(cells, glyphs) where cell.character != " " {
                    litCells.append(QuadCorners(
                        topLeft: glyph.place(0, 0), topRight: glyph.place(glyph.width, 0),
                        bottomRight: glyph.place(glyph.width, glyph.height), bottomLeft: glyph.place(0, glyph.height)))
                }
            }
        }

        for decoration in design.displayDecorations {
            let r = decoration.box
            DecorationPainter.draw(
                decoration, x: dx + r.x * dw, y: dy + r.y * dh, width: r.width * dw, height: r.height * dh,
                shade: decoration.shade ?? design.inkShade, background: design.displayShade, on: &image)
        }

        if design.glow > 0 {
            addGlow(
                &image, polygons: litPolygons, region: (dx - margin, dy - margin, dw + 2 * margin, dh + 2 * margin),
                sigma: max(0.6, design.segmentStyle.thickness * dh * 0.25),
                amount: Float(design.glow) * (design.inkShade - design.displayShade))
        }

        return DeviceLayer(
            image: image, mask: mask, display: QuadCorners(x: dx, y: dy, width: dw, height: dh),
            fieldBoxes: fieldBoxes, litDigitCells: litCells)
    }

    /// The body's outline polygon in layer pixels (inset by a pixel so the anti-aliased edge stays inside).
    static func bodyOutline(_ shape: BodyShape, width W: Double, height H: Double) -> [CanvasPoint] {
        switch shape {
        case .roundedRectangle(let corner):
            return Shapes.roundedRectangle(x: 1, y: 1, width: W - 2, height: H - 2, radius: corner * min(W, H))
        case .stick:
            // Probe tip (narrow, rounded) on the left, a taper, then the handle with a rounded right end.
            let cy = H / 2
            let tipR = H * 0.11, handleR = H / 2 - 1
            var top: [CanvasPoint] = [CanvasPoint(W * 0.01 + tipR, cy - tipR), CanvasPoint(W * 0.2, cy - tipR * 1.25),
                                      CanvasPoint(W * 0.3, cy - handleR * 0.86), CanvasPoint(W - handleR - 1, cy - handleR)]
            for i in 1..<16 {
                let a = -Double.pi / 2 + Double.pi * Double(i) / 16
                top.append(CanvasPoint(W - handleR - 1 + handleR * cos(a), cy + handleR * sin(a)))
            }
            var bottom: [CanvasPoint] = [CanvasPoint(W - handleR - 1, cy + handleR), CanvasPoint(W * 0.3, cy + handleR * 0.86),
                                         CanvasPoint(W * 0.2, cy + tipR * 1.25), CanvasPoint(W * 0.01 + tipR, cy + tipR)]
            for i in 1..<10 {
                let a = Double.pi / 2 + Double.pi * Double(i) / 10
                bottom.append(CanvasPoint(W * 0.01 + tipR + tipR * cos(a), cy + tipR * sin(a)))
            }
            return top + bottom
        }
    }

    /// The metal tip of a stick thermometer: brighter, with a specular line along it.
    private static func drawProbeTip(_ image: inout FloatCanvas, width W: Double, height H: Double) {
        let r = H * 0.11
        image.fill(Shapes.roundedRectangle(x: W * 0.01, y: H / 2 - r, width: W * 0.17, height: 2 * r, radius: r), value: 168)
        image.fill(Shapes.rectangle(x: W * 0.02, y: H / 2 - r * 0.55, width: W * 0.15, height: r * 0.3), value: 228, opacity: 0.8)
        image.fill(Shapes.rectangle(x: W * 0.175, y: H / 2 - r * 1.3, width: W * 0.012, height: r * 2.6), value: 120)
    }

    /// Multiplies rows y0..<y1 (columns x0..<x1) by a factor going linearly from `top` to `bottom`.
    static func shadeRows(
        _ image: inout FloatCanvas, y0: Int, y1: Int, top: Double, bottom: Double, x0: Int = 0, x1: Int? = nil
    ) {
        let w = image.width
        let ya = max(0, y0), yb = min(image.height, y1), xa = max(0, x0), xb = min(w, x1 ?? w)
        guard yb > ya, xb > xa else { return }
        image.values.withUnsafeMutableBufferPointer { buf in
            for y in ya..<yb {
                let t = (Double(y - ya) + 0.5) / Double(yb - ya)
                let k = Float(top + (bottom - top) * t)
                for x in xa..<xb { buf[y * w + x] *= k }
            }
        }
    }

    /// The halo of backlit segments: lit shapes blurred and added on top.
    private static func addGlow(
        _ image: inout FloatCanvas, polygons: [[CanvasPoint]], region: (Double, Double, Double, Double),
        sigma: Double, amount: Float
    ) {
        let pad = Int((3 * sigma).rounded(.up))
        let ox = Int(region.0.rounded(.down)) - pad, oy = Int(region.1.rounded(.down)) - pad
        let gw = Int(region.2.rounded(.up)) + 2 * pad, gh = Int(region.3.rounded(.up)) + 2 * pad
        guard gw > 0, gh > 0 else { return }
        var glow = FloatCanvas(width: gw, height: gh)
        for p in polygons { glow.fill(Shapes.translate(p, dx: -Double(ox), dy: -Double(oy)), value: 1) }
        glow.gaussianBlur(sigma: sigma)
        let w = image.width, h = image.height
        image.values.withUnsafeMutableBufferPointer { dst in
            glow.values.withUnsafeBufferPointer { g in
                for y in 0..<gh where oy + y >= 0 && oy + y < h {
                    for x in 0..<gw where ox + x >= 0 && ox + x < w {
                        dst[(oy + y) * w + ox + x] += amount * g[y * gw + x]
                    }
                }
            }
        }
    }
}
