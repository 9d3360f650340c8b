import Foundation

/// Outlines of the shapes the meters are made of, as polygons for `FloatCanvas.fill`.
///
/// Curves are flattened into short chords; the chord count grows with the radius so that large bodies stay
/// round and tiny icons do not waste vertices.
public enum Shapes {
    public static func rectangle(x: Double, y: Double, width: Double, height: Double) -> [CanvasPoint] {
        QuadCorners(x: x, y: y, width: width, height: height).points
    }

    /// A rectangle with circular corners (radius clamped to half the shorter side).
    public static func roundedRectangle(
        x: Double, y: Double, width: Double, height: Double, radius: Double
    ) -> [CanvasPoint] {
        let r = max(0, min(radius, width / 2, height / 2))
        guard r > 0.2 else { return rectangle(x: x, y: y, width: width, height: height) }
        let steps = min(16, max(3, Int((r * 0.6).rounded(.up))))
        var points: [CanvasPoint] = []
        points.reserveCapacity(4 * (steps + 1))
        // Corner centres clockwise from top-left, each arc sweeping a quarter turn (y grows downwards).
        let corners: [(Double, Double, Double)] = [
            (x + r, y + r, Double.pi), (x + width - r, y + r, 1.5 * Double.pi),
            (x + width - r, y + height - r, 0), (x + r, y + height - r, 0.5 * Double.pi),
        ]
        for (cx, cy, start) in corners {
            for i in 0...steps {
                let angle = start + 0.5 * Double.pi * Double(i) / Double(steps)
                points.append(CanvasPoint(cx + r * cos(angle), cy + r * sin(angle)))
            }
        }
        return points
    }

    /// An ellipse, optionally rotated by `angle` radians.
    public static func ellipse(
        center: CanvasPoint, radiusX: Double, radiusY: Double, angle: Double = 0
    ) -> [CanvasPoint] {
        let steps = max(12, min(96, Int((max(radiusX, radiusY) * 1.5).rounded(.up))))
        let ca = cos(angle), sa = sin(angle)
        return (0..<steps).map { i in
            let t = 2 * Double.pi * Double(i) / Double(steps)
            let ex = radiusX * cos(t), ey = radiusY * sin(t)
            return CanvasPoint(center.x + ex * ca - ey * sa, center.y + ex * sa + ey * ca)
        }
    }

    /// A straight stroke from `a` to `b` with square ends.
    public static func line(from a: CanvasPoint, to b: CanvasPoint, width: Double) -> [CanvasPoint] {
        let d = b - a
        let len = max(d.length, 1e-9)
        let n = CanvasPoint(-d.y / len * width / 2, d.x / len * width / 2)
        return [a + n, b + n, b - n, a - n]
    }

    /// The outline of a rounded rectangle `strokeWidth` wide (centred on the rectangle's edge), as two
    /// contours for the even-odd fill.
    public static func roundedRectangleStroke(
        x: Double, y: Double, width: Double, height: Double, radius: Double, strokeWidth: Double
    ) -> [[CanvasPoint]] {
        let h = strokeWidth / 2
        return [
            roundedRectangle(x: x - h, y: y - h, width: width + 2 * h, height: height + 2 * h, radius: radius + h),
            roundedRectangle(
                x: x + h, y: y + h, width: width - 2 * h, height: height - 2 * h, radius: max(0, radius - h)),
        ]
    }

    /// Moves every point by `dx, dy`.
    public static func translate(_ polygon: [CanvasPoint], dx: Double, dy: Double) -> [CanvasPoint] {
        polygon.map { CanvasPoint($0.x + dx, $0.y + dy) }
    }
}
