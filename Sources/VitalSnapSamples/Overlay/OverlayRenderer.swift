import Foundation
import VitalSnapImaging
import VitalSnapOCR

/// Draws the camera overlay of a peripheral from its definition, so the picture and the JSON never disagree.
///
/// The image is 8-bit grey (the codecs write no alpha): mid-grey outside the device, a slightly lighter
/// device area inside a white outline with the overlay's aspect ratio, the display window filled black
/// (0, which the app keys out as transparent) inside a white rounded frame, and each field's box as a thin
/// dashed line (measurement fields brighter than time and date). No text: the app adds its own labels.
public enum OverlayRenderer {
    /// Long side of the overlay image in pixels.
    public static let longSide = 480

    static let outside: Float = 128
    static let device: Float = 150
    static let window: Float = 0
    static let stroke: Float = 255

    /// The overlay image of `definition` (long side `longSide`).
    public static func render(_ definition: PeripheralDefinition, longSide: Int = OverlayRenderer.longSide) -> GrayImage {
        let a = definition.overlay.aspectRatio
        let (w, h) = a >= 1
            ? (longSide, max(1, Int((Double(longSide) / a).rounded())))
            : (max(1, Int((Double(longSide) * a).rounded())), longSide)
        var canvas = FloatCanvas(width: w, height: h, fill: outside)
        let W = Double(w), H = Double(h)
        let line = max(2.0, Double(longSide) / 160)

        let inset = line
        let bodyRadius = 0.12 * min(W, H)
        canvas.fill(
            Shapes.roundedRectangle(x: inset, y: inset, width: W - 2 * inset, height: H - 2 * inset, radius: bodyRadius), value: device)
        canvas.fill(
            contours: Shapes.roundedRectangleStroke(
                x: inset, y: inset, width: W - 2 * inset, height: H - 2 * inset, radius: bodyRadius, strokeWidth: line),
            value: stroke)

        let d = definition.overlay.display
        let dx = d.x * W, dy = d.y * H, dw = d.width * W, dh = d.height * H
        let windowRadius = 0.06 * min(dw, dh)
        canvas.fill(Shapes.roundedRectangle(x: dx, y: dy, width: dw, height: dh, radius: windowRadius), value: window)
        canvas.fill(
            contours: Shapes.roundedRectangleStroke(x: dx, y: dy, width: dw, height: dh, radius: windowRadius, strokeWidth: line * 0.8),
            value: stroke)

        for field in definition.fields {
            guard let box = field.box else { continue }
            dashedRectangle(
                &canvas, x: dx + box.x * dw, y: dy + box.y * dh, width: box.width * dw, height: box.height * dh,
                lineWidth: max(1.2, line * 0.55), dash: line * 3, gap: line * 2,
                value: field.name.isMeasurement ? 235 : 170)
        }
        return canvas.grayImage()
    }

    /// Renders every peripheral of `catalog` and writes `NNN-name.png` into `directory`, next to the JSON of
    /// the same base name (taken from `catalog.directory` when it holds the definitions, else built from
    /// the id and model). Returns the files written.
    @discardableResult
    public static func writeAll(catalog: PeripheralCatalog, to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let jsonNames = catalog.directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        var written: [URL] = []
        for definition in catalog.peripherals {
            let url = directory.appendingPathComponent(baseName(for: definition, jsonNames: jsonNames) + ".png")
            try ImageEncoder.write(try ImageEncoder.png(render(definition)), to: url.path)
            written.append(url)
        }
        return written
    }

    /// `101-glucose-g1` from `101-glucose-g1.json`, or from the id and model when there is no such file.
    static func baseName(for definition: PeripheralDefinition, jsonNames: [String]) -> String {
        let prefix = String(format: "%03d-", definition.id)
        if let json = jsonNames.sorted().first(where: { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }) {
            return String(json.dropLast(".json".count))
        }
        let slug = definition.model.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return prefix + String(slug).split(separator: "-").joined(separator: "-")
    }

    /// A rectangle outline of dashes, walking the perimeter so dashes turn the corners evenly.
    static func dashedRectangle(
        _ canvas: inout FloatCanvas, x: Double, y: Double, width: Double, height: Double,
        lineWidth: Double, dash: Double, gap: Double, value: Float
    ) {
        let corners = QuadCorners(x: x, y: y, width: width, height: height).points
        for (a, b) in zip(corners, corners.dropFirst() + [corners[0]]) {
            let length = a.distance(to: b)
            let n = max(1, Int(((length + gap) / (dash + gap)).rounded()))
            // Stretch the pattern so each side starts and ends with a dash.
            let step = (length + gap) / Double(n)
            let on = step - gap
            for i in 0..<n {
                let t0 = Double(i) * step / length, t1 = min(1, (Double(i) * step + on) / length)
                let p = a + (b - a) * t0, q = a + (b - a) * t1
                canvas.fill(Shapes.line(from: p, to: q, width: lineWidth), value: value)
            }
        }
    }
}
