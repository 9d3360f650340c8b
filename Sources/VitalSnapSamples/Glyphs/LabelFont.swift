/// A tiny stroke font for the printed legends around a display (`mg/dL`, `SYS`, `mmHg`, `%SpO2`) and the
/// logo on the body.
///
/// Real displays carry such small print next to the digits, and a reader has to ignore it; plain blocks would
/// not test that. Glyphs are polylines on a 4 x 6 grid (baseline at y = 6, descenders to 7.5).
public enum LabelFont {
    /// Advance of a character in grid units (glyph plus spacing).
    static func advance(_ c: Character) -> Double {
        switch c {
        case "°", "l", "I", "1", ".": 3
        case " ": 3.5
        case "m", "M", "%": 6
        default: 5.5
        }
    }

    /// Width of `text` at `size` (the cap height in pixels).
    public static func width(of text: String, size: Double) -> Double {
        text.reduce(0) { $0 + advance($1) } * size / 6 - size / 6 * 1.5
    }

    /// Draws `text` with its cap-height box starting at (x, y).
    public static func draw(
        _ text: String, x: Double, y: Double, size: Double, value: Float, on canvas: inout FloatCanvas,
        strokeWidth: Double? = nil
    ) {
        let unit = size / 6
        let stroke = strokeWidth ?? max(0.8, size * 0.13)
        var penX = x
        for c in text {
            for polyline in strokes(c) {
                for (p, q) in zip(polyline, polyline.dropFirst()) {
                    let a = CanvasPoint(penX + p.0 * unit, y + p.1 * unit)
                    let b = CanvasPoint(penX + q.0 * unit, y + q.1 * unit)
                    // Extend each stroke by half its width so corners close up.
                    let d = b - a
                    let len = max(d.length, 1e-6)
                    let e = CanvasPoint(d.x / len * stroke / 2, d.y / len * stroke / 2)
                    canvas.fill(Shapes.line(from: a - e, to: b + e, width: stroke), value: value)
                }
            }
            penX += advance(c) * unit
        }
    }

    // swiftlint:disable:next cyclomatic_complexity
    static func strokes(_ c: Character) -> [[(Double, Double)]] {
        let bowlRight: [(Double, Double)] = [(0, 3.8), (1, 3), (3, 3), (4, 3.8), (4, 5.2), (3, 6), (1, 6), (0, 5.2)]
        let bowlLeft: [(Double, Double)] = [(4, 3.8), (3, 3), (1, 3), (0, 3.8), (0, 5.2), (1, 6), (3, 6), (4, 5.2)]
        switch c {
        case "m": return [[(0, 6), (0, 3)], [(0, 3.6), (1, 3), (2, 3.6), (2, 6)], [(2, 3.6), (3, 3), (4, 3.6), (4, 6)]]
        case "g": return [[(4, 3), (4, 7), (3, 7.5), (1, 7.5), (0, 7)], bowlLeft]
        case "/": return [[(0.3, 6.3), (3.7, -0.3)]]
        case "d": return [[(4, 0), (4, 6)], bowlLeft]
        case "b": return [[(0, 0), (0, 6)], bowlRight]
        case "p": return [[(0, 3), (0, 7.5)], bowlRight]
        case "o": return [[(1, 3), (3, 3), (4, 4), (4, 5), (3, 6), (1, 6), (0, 5), (0, 4), (1, 3)]]
        case "l": return [[(1, 0), (1, 6)]]
        case "k": return [[(0, 0), (0, 6)], [(4, 2.6), (0, 5)], [(1.6, 4.1), (4, 6)]]
        case "i": return [[(1, 3), (1, 6)], [(1, 1.2), (1, 1.9)]]
        case "n": return [[(0, 6), (0, 3)], [(0, 3.8), (1, 3), (3, 3), (4, 3.8), (4, 6)]]
        case "%":
            return [[(0.5, 6), (4.5, 0)], [(0.5, 0.3), (1.6, 0.3), (1.6, 1.7), (0.5, 1.7), (0.5, 0.3)],
                    [(3.4, 4.3), (4.5, 4.3), (4.5, 5.7), (3.4, 5.7), (3.4, 4.3)]]
        case "°": return [[(0.3, 0), (1.5, 0), (1.5, 1.2), (0.3, 1.2), (0.3, 0)]]
        case "A": return [[(0, 6), (2, 0), (4, 6)], [(0.8, 4), (3.2, 4)]]
        case "B": return [[(0, 0), (0, 6), (3, 6), (4, 5), (4, 4), (3, 3), (0, 3)], [(0, 0), (3, 0), (4, 1), (4, 2), (3, 3)]]
        case "C": return [[(4, 1), (3, 0), (1, 0), (0, 1), (0, 5), (1, 6), (3, 6), (4, 5)]]
        case "D": return [[(0, 0), (0, 6), (3, 6), (4, 5), (4, 1), (3, 0), (0, 0)]]
        case "E": return [[(4, 0), (0, 0), (0, 6), (4, 6)], [(0, 3), (3, 3)]]
        case "G": return [[(4, 1), (3, 0), (1, 0), (0, 1), (0, 5), (1, 6), (3, 6), (4, 5), (4, 3.5), (2.5, 3.5)]]
        case "H": return [[(0, 0), (0, 6)], [(4, 0), (4, 6)], [(0, 3), (4, 3)]]
        case "I", "1": return c == "I" ? [[(1, 0), (1, 6)]] : [[(0, 1), (1, 0), (1, 6)]]
        case "L": return [[(0, 0), (0, 6), (4, 6)]]
        case "M": return [[(0, 6), (0, 0), (2, 3), (4, 0), (4, 6)]]
        case "N": return [[(0, 6), (0, 0), (4, 6), (4, 0)]]
        case "O": return [[(1, 0), (3, 0), (4, 1), (4, 5), (3, 6), (1, 6), (0, 5), (0, 1), (1, 0)]]
        case "P": return [[(0, 6), (0, 0), (3, 0), (4, 1), (4, 2), (3, 3), (0, 3)]]
        case "R": return [[(0, 6), (0, 0), (3, 0), (4, 1), (4, 2), (3, 3), (0, 3)], [(2, 3), (4, 6)]]
        case "S": return [[(4, 1), (3, 0), (1, 0), (0, 1), (0, 2), (1, 3), (3, 3), (4, 4), (4, 5), (3, 6), (1, 6), (0, 5)]]
        case "T": return [[(0, 0), (4, 0)], [(2, 0), (2, 6)]]
        case "U": return [[(0, 0), (0, 5), (1, 6), (3, 6), (4, 5), (4, 0)]]
        case "V": return [[(0, 0), (2, 6), (4, 0)]]
        case "Y": return [[(0, 0), (2, 3), (4, 0)], [(2, 3), (2, 6)]]
        case "2": return [[(0, 1), (1, 0), (3, 0), (4, 1), (4, 2), (0, 6), (4, 6)]]
        case "3": return [[(0, 1), (1, 0), (3, 0), (4, 1), (4, 2), (3, 3), (1.5, 3)], [(3, 3), (4, 4), (4, 5), (3, 6), (1, 6), (0, 5)]]
        case "0": return strokes("O")
        default: return []
        }
    }
}
