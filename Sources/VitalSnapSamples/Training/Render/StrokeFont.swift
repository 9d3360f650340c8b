import Foundation

/// A stroke font for the training scenes: `LabelFont`'s legends plus the digits, letters and signs it lacks
/// (`4`-`9`, `F`, `W`, `h`, `r`, `e`, ...), returned as polygons rather than drawn, so that text can be put
/// through a camera pose and drawn in colour.
///
/// It serves two purposes: printed legends and logos (thin strokes) and the digits of colour screens that do
/// not use seven segments (heavier strokes). Glyphs are polylines on `LabelFont`'s 4 x 6 grid (baseline at
/// y = 6, descenders to 7.5). `LabelFont` itself is left as it is, so the sample set keeps its bytes.
public enum StrokeFont {
    /// Advance of a character in grid units (glyph plus spacing).
    static func advance(_ c: Character) -> Double {
        switch c {
        case "W", "w": 6.5
        case ".", ":": 2.5
        case "r", "t", "f": 4.5
        default: LabelFont.advance(c)
        }
    }

    /// Width of `text` at cap height `size` (without the spacing after the last character).
    public static func width(of text: String, size: Double) -> Double {
        guard !text.isEmpty else { return 0 }
        return text.reduce(0) { $0 + advance($1) } * size / 6 - size / 6 * 1.5
    }

    /// The left edge and ink width (grid units) of a character's glyph, for its cell box.
    static func inkWidth(_ c: Character) -> Double {
        switch c {
        case ".", ":": 1
        case "1", "I", "l", "i": 2.2
        case "W", "w", "m", "M", "%": 5
        default: 4
        }
    }

    /// The outlines of `text` with its cap-height box starting at (x, y): one polygon per stroke segment.
    public static func polygons(_ text: String, x: Double, y: Double, size: Double, strokeWidth: Double) -> [[CanvasPoint]] {
        var out: [[CanvasPoint]] = []
        var penX = x
        for c in text {
            out += glyphPolygons(c, x: penX, y: y, size: size, strokeWidth: strokeWidth)
            penX += advance(c) * size / 6
        }
        return out
    }

    /// One character's stroke polygons, its grid origin at (x, y). Dots (`.`, `:`) are small squares.
    /// `widthScale` stretches the glyph horizontally (1: the grid's own proportions).
    static func glyphPolygons(
        _ c: Character, x: Double, y: Double, size: Double, strokeWidth: Double, widthScale: Double = 1
    ) -> [[CanvasPoint]] {
        let unit = size / 6
        let unitX = unit * widthScale
        if c == "." || c == ":" {
            let side = max(strokeWidth * 1.15, unit * 0.9)
            let cx = x + 0.5 * unit
            let ys: [Double] = c == "." ? [6] : [2.2, 6]
            return ys.map { gy in Shapes.rectangle(x: cx - side / 2, y: y + gy * unit - side, width: side, height: side) }
        }
        var out: [[CanvasPoint]] = []
        let r = strokeWidth / 2
        for polyline in strokes(c) {
            let points = polyline.map { CanvasPoint(x + $0.0 * unitX, y + $0.1 * unit) }
            for (a, b) in zip(points, points.dropFirst()) where a.distance(to: b) > 1e-9 {
                out.append(Shapes.line(from: a, to: b, width: strokeWidth))
            }
            // Round joins and ends: an octagon on every vertex.
            for p in points {
                out.append((0..<8).map { i in
                    let t = Double(i) * Double.pi / 4 + Double.pi / 8
                    return CanvasPoint(p.x + r * cos(t) / cos(Double.pi / 8), p.y + r * sin(t) / cos(Double.pi / 8))
                })
            }
        }
        return out
    }

    // swiftlint:disable:next cyclomatic_complexity
    static func strokes(_ c: Character) -> [[(Double, Double)]] {
        switch c {
        case "0": return [[(1, 0), (3, 0), (4, 1), (4, 5), (3, 6), (1, 6), (0, 5), (0, 1), (1, 0)]]
        case "1": return [[(1, 1.2), (2.4, 0), (2.4, 6)]]
        case "4": return [[(3, 6), (3, 0), (0, 4.2), (4, 4.2)]]
        case "5": return [[(4, 0), (0.4, 0), (0.2, 2.8), (1, 2.5), (3, 2.5), (4, 3.4), (4, 5), (3, 6), (1, 6), (0, 5.2)]]
        case "6":
            return [[(3.6, 0.4), (2.6, 0), (1.2, 0), (0, 1.2), (0, 5), (1, 6), (3, 6), (4, 5), (4, 3.8), (3, 2.9), (1, 2.9), (0, 3.8)]]
        case "7": return [[(0, 0), (4, 0), (1.5, 6)]]
        case "8":
            return [[(1, 0), (3, 0), (3.8, 0.8), (3.8, 2.1), (3, 2.9), (1, 2.9), (0.2, 2.1), (0.2, 0.8), (1, 0)],
                    [(1, 2.9), (3, 2.9), (4, 3.8), (4, 5.1), (3, 6), (1, 6), (0, 5.1), (0, 3.8), (1, 2.9)]]
        case "9":
            return [[(0.4, 5.6), (1.4, 6), (2.8, 6), (4, 4.8), (4, 1), (3, 0), (1, 0), (0, 1), (0, 2.2), (1, 3.1), (3, 3.1), (4, 2.2)]]
        case "-": return [[(0.5, 3.2), (3.5, 3.2)]]
        case "+": return [[(0.5, 3), (3.5, 3)], [(2, 1.5), (2, 4.5)]]
        case "~": return [[(0, 3.5), (1, 2.8), (2, 3.3), (3, 3.8), (4, 3.1)]]
        case "r": return [[(0, 6), (0, 3)], [(0, 4), (1, 3), (3, 3)]]
        case "F": return [[(4, 0), (0, 0), (0, 6)], [(0, 3), (3, 3)]]
        case "W": return [[(0, 0), (1.2, 6), (2.5, 2.2), (3.8, 6), (5, 0)]]
        case "w": return [[(0, 3), (1.2, 6), (2.5, 3.8), (3.8, 6), (5, 3)]]
        case "K": return [[(0, 0), (0, 6)], [(4, 0), (0, 3.6)], [(1.4, 2.6), (4, 6)]]
        case "h": return [[(0, 0), (0, 6)], [(0, 3.8), (1, 3), (3, 3), (4, 3.8), (4, 6)]]
        case "e": return [[(0, 4.5), (4, 4.5), (4, 3.8), (3, 3), (1, 3), (0, 3.8), (0, 5.2), (1, 6), (3.5, 6)]]
        case "a": return [[(4, 3), (4, 6)], [(4, 3.8), (3, 3), (1, 3), (0, 3.8), (0, 5.2), (1, 6), (3, 6), (4, 5.2)]]
        case "t": return [[(1.5, 1), (1.5, 5.5), (2.3, 6), (3.3, 6)], [(0.3, 3), (3.3, 3)]]
        case "s": return [[(4, 3.4), (3.4, 3), (0.8, 3), (0, 3.6), (0.6, 4.4), (3.4, 4.6), (4, 5.3), (3.3, 6), (0.6, 6), (0, 5.6)]]
        case "c": return [[(4, 3.6), (3, 3), (1, 3), (0, 3.8), (0, 5.2), (1, 6), (3, 6), (4, 5.4)]]
        case "u": return [[(0, 3), (0, 5.2), (1, 6), (3, 6), (4, 5.2)], [(4, 3), (4, 6)]]
        case "x": return [[(0, 3), (4, 6)], [(4, 3), (0, 6)]]
        case "y": return [[(0, 3), (2, 6)], [(4, 3), (1, 7.5)]]
        case "f": return [[(3.5, 0.3), (2.6, 0), (1.8, 0.5), (1.5, 1.5), (1.5, 6)], [(0.3, 3), (3, 3)]]
        case "$": return LabelFont.strokes("S") + [[(2, -0.6), (2, 6.6)]]
        case "X": return [[(0, 0), (4, 6)], [(4, 0), (0, 6)]]
        case "Z": return [[(0, 0), (4, 0), (0, 6), (4, 6)]]
        case "J": return [[(4, 0), (4, 5), (3, 6), (1, 6), (0, 5)]]
        case "Q": return LabelFont.strokes("O") + [[(2.5, 4.5), (4, 6.3)]]
        default: return LabelFont.strokes(c)
        }
    }
}
