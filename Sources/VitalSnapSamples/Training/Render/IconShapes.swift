import Foundation

/// Outlines of display symbols (battery, heart, drop, bars, ...) in a box, as shapes for the colour canvas
/// (each shape a list of contours filled together, even-odd).
enum IconShapes {
    static func shapes(_ icon: IconSpec, x: Double, y: Double) -> [[[CanvasPoint]]] {
        let w = icon.width, h = icon.height
        let stroke = max(0.6, min(w, h) * 0.12)
        switch icon.kind {
        case .battery:
            let nub = w * 0.08
            var out: [[[CanvasPoint]]] = [
                Shapes.roundedRectangleStroke(
                    x: x + stroke / 2, y: y + stroke / 2, width: w - nub - stroke, height: h - stroke,
                    radius: stroke, strokeWidth: stroke),
                [Shapes.rectangle(x: x + w - nub, y: y + h * 0.3, width: nub, height: h * 0.4)],
            ]
            let inner = w - nub - 3 * stroke
            let bars = Int((icon.level * 3).rounded())
            for i in 0..<bars {
                out.append([Shapes.rectangle(
                    x: x + 1.5 * stroke + Double(i) * inner / 3, y: y + 1.6 * stroke,
                    width: inner / 3 - stroke * 0.6, height: h - 3.2 * stroke)])
            }
            return out
        case .heart:
            let r = w * 0.27
            return [
                [Shapes.ellipse(center: CanvasPoint(x + w * 0.28, y + h * 0.3), radiusX: r, radiusY: r)],
                [Shapes.ellipse(center: CanvasPoint(x + w * 0.72, y + h * 0.3), radiusX: r, radiusY: r)],
                [[CanvasPoint(x + w * 0.02, y + h * 0.38), CanvasPoint(x + w * 0.98, y + h * 0.38), CanvasPoint(x + w * 0.5, y + h)]],
            ]
        case .drop:
            let r = min(w / 2, h * 0.33)
            let c = CanvasPoint(x + w / 2, y + h - r)
            return [
                [Shapes.ellipse(center: c, radiusX: r, radiusY: r)],
                [[CanvasPoint(x + w / 2, y), CanvasPoint(c.x + r * 0.92, c.y - r * 0.4), CanvasPoint(c.x - r * 0.92, c.y - r * 0.4)]],
            ]
        case .bars:
            // A vertical bar graph (pulse strength): `level` of its steps lit.
            let levels = 6
            let lit = max(1, Int((icon.level * Double(levels)).rounded()))
            let step = h / Double(levels)
            return (0..<lit).map { i in
                [Shapes.rectangle(x: x, y: y + h - Double(i + 1) * step + step * 0.18, width: w, height: step * 0.64)]
            }
        case .signal:
            // Rising bars side by side.
            let n = 4
            let bw = w / Double(n)
            let lit = max(1, Int((icon.level * Double(n)).rounded()))
            return (0..<lit).map { i in
                let bh = h * Double(i + 1) / Double(n)
                return [Shapes.rectangle(x: x + Double(i) * bw, y: y + h - bh, width: bw * 0.7, height: bh)]
            }
        case .person:
            let r = min(w, h) * 0.2
            return [
                [Shapes.ellipse(center: CanvasPoint(x + w / 2, y + r * 1.1), radiusX: r, radiusY: r)],
                [Shapes.roundedRectangle(x: x + w * 0.15, y: y + h * 0.52, width: w * 0.7, height: h * 0.48, radius: w * 0.3)],
            ]
        case .bell:
            return [
                [[CanvasPoint(x + w * 0.5, y), CanvasPoint(x + w * 0.8, y + h * 0.25), CanvasPoint(x + w * 0.85, y + h * 0.7),
                  CanvasPoint(x + w, y + h * 0.82), CanvasPoint(x, y + h * 0.82), CanvasPoint(x + w * 0.15, y + h * 0.7),
                  CanvasPoint(x + w * 0.2, y + h * 0.25)]],
                [Shapes.ellipse(center: CanvasPoint(x + w / 2, y + h * 0.9), radiusX: w * 0.12, radiusY: h * 0.1)],
            ]
        case .arrow:
            return [[[
                CanvasPoint(x, y + h * 0.35), CanvasPoint(x + w * 0.55, y + h * 0.35), CanvasPoint(x + w * 0.55, y),
                CanvasPoint(x + w, y + h / 2), CanvasPoint(x + w * 0.55, y + h), CanvasPoint(x + w * 0.55, y + h * 0.65),
                CanvasPoint(x, y + h * 0.65),
            ]]]
        }
    }
}
