/// Draws `Decoration`s into a box given in canvas pixels.
enum DecorationPainter {
    static func draw(
        _ decoration: Decoration, x: Double, y: Double, width w: Double, height h: Double,
        shade: Float, background: Float, on canvas: inout FloatCanvas
    ) {
        let opacity = decoration.opacity
        switch decoration.kind {
        case .label(let text):
            // Fit the text into the box, left-aligned and vertically centred.
            let unitWidth = LabelFont.width(of: text, size: 1)
            let size = min(h, w / max(unitWidth, 0.01))
            LabelFont.draw(text, x: x, y: y + (h - size) / 2, size: size, value: shade, on: &canvas)
        case .battery:
            let nub = w * 0.08
            let stroke = max(0.8, min(w, h) * 0.12)
            canvas.fill(
                contours: Shapes.roundedRectangleStroke(
                    x: x + stroke / 2, y: y + stroke / 2, width: w - nub - stroke, height: h - stroke,
                    radius: stroke, strokeWidth: stroke),
                value: shade, opacity: opacity)
            canvas.fill(Shapes.rectangle(x: x + w - nub, y: y + h * 0.3, width: nub, height: h * 0.4), value: shade, opacity: opacity)
            let inner = w - nub - 3 * stroke
            for i in 0..<3 {
                let barW = inner / 3 - stroke * 0.6
                canvas.fill(
                    Shapes.rectangle(
                        x: x + 1.5 * stroke + Double(i) * inner / 3, y: y + 1.6 * stroke,
                        width: barW, height: h - 3.2 * stroke),
                    value: shade, opacity: opacity)
            }
        case .heart:
            let r = w * 0.27
            canvas.fill(Shapes.ellipse(center: CanvasPoint(x + w * 0.28, y + h * 0.3), radiusX: r, radiusY: r), value: shade, opacity: opacity)
            canvas.fill(Shapes.ellipse(center: CanvasPoint(x + w * 0.72, y + h * 0.3), radiusX: r, radiusY: r), value: shade, opacity: opacity)
            canvas.fill(
                [CanvasPoint(x + w * 0.02, y + h * 0.38), CanvasPoint(x + w * 0.98, y + h * 0.38), CanvasPoint(x + w * 0.5, y + h)],
                value: shade, opacity: opacity)
        case .drop:
            let r = min(w / 2, h * 0.33)
            let c = CanvasPoint(x + w / 2, y + h - r)
            canvas.fill(Shapes.ellipse(center: c, radiusX: r, radiusY: r), value: shade, opacity: opacity)
            canvas.fill(
                [CanvasPoint(x + w / 2, y), CanvasPoint(c.x + r * 0.92, c.y - r * 0.4), CanvasPoint(c.x - r * 0.92, c.y - r * 0.4)],
                value: shade, opacity: opacity)
        case .barGraph(let levels, let lit):
            let step = h / Double(max(1, levels))
            for i in 0..<levels {
                let top = y + h - Double(i + 1) * step
                let on = i < lit
                canvas.fill(
                    Shapes.rectangle(x: x, y: top + step * 0.18, width: w, height: step * 0.64),
                    value: on ? shade : background + (shade - background) * 0.04, opacity: opacity)
            }
        case .button:
            let c = CanvasPoint(x + w / 2, y + h / 2)
            let rim = max(1, min(w, h) * 0.06)
            canvas.fill(Shapes.ellipse(center: c, radiusX: w / 2, radiusY: h / 2), value: shade * 0.7, opacity: opacity)
            canvas.fill(Shapes.ellipse(center: c, radiusX: w / 2 - rim, radiusY: h / 2 - rim), value: shade, opacity: opacity)
            // A soft highlight on the upper half: buttons are domed.
            canvas.fill(
                Shapes.ellipse(center: CanvasPoint(c.x, c.y - h * 0.15), radiusX: w * 0.3, radiusY: h * 0.18),
                value: min(255, shade * 1.15 + 10), opacity: 0.5 * opacity)
        case .port:
            canvas.fill(
                Shapes.roundedRectangle(x: x, y: y, width: w, height: h, radius: h * 0.4), value: shade, opacity: opacity)
        case .rule:
            canvas.fill(Shapes.rectangle(x: x, y: y + h / 2 - max(0.7, h) / 2, width: w, height: max(0.7, h)), value: shade, opacity: opacity)
        case .reflection:
            canvas.fill(
                [CanvasPoint(x + w * 0.05, y), CanvasPoint(x + w * 0.45, y), CanvasPoint(x + w * 0.1, y + h), CanvasPoint(x, y + h * 0.85)],
                value: shade, opacity: opacity)
        case .plate:
            canvas.fill(
                Shapes.roundedRectangle(x: x, y: y, width: w, height: h, radius: min(w, h) * 0.15), value: shade * 0.8, opacity: opacity)
            canvas.fill(
                Shapes.roundedRectangle(x: x + 1.5, y: y + 1.5, width: w - 3, height: h - 3, radius: min(w, h) * 0.15),
                value: shade, opacity: opacity)
        }
    }
}
