import VitalSnapOCR

/// One line of `scenes.jsonl`: a scene's file, size, quarter turns, annotated lines, display quad and style,
/// as compact JSON with a fixed key order and fixed number formatting (coordinates to 0.01 px), so the same
/// scene always gives the same bytes.
///
///     {"file": "scenes/000123.jpg", "width": W, "height": H, "quarter_turns": k,
///      "lines": [{"role": ..., "field": ... (values only), "text": ..., "readable": ..., "quad": [[x, y] x4],
///                 "digit_height": h, "polarity": ...}],
///      "display": [[x, y] x4] or null, "style": {...}}
public enum SceneAnnotationJSON {
    public static func line(for scene: TrainingScene, file: String) -> String {
        var out = "{\"file\": \(string(file)), \"width\": \(scene.width), \"height\": \(scene.height), "
        out += "\"quarter_turns\": \(scene.quarterTurns), \"lines\": ["
        out += scene.lines.map(line).joined(separator: ", ")
        out += "], \"display\": "
        out += scene.display.map(points) ?? "null"
        out += ", \"style\": {"
        out += scene.style.map { "\(string($0.key)): \(value($0.value))" }.joined(separator: ", ")
        out += "}}"
        return out
    }

    static func line(_ l: TrainingLine) -> String {
        var out = "{\"role\": \(string(l.role.rawValue)), "
        if let field = l.field { out += "\"field\": \(string(field)), " }
        out += "\"text\": \(string(l.text)), \"readable\": \(l.readable), \"quad\": \(points(l.quad.corners)), "
        out += "\"digit_height\": \(number(l.digitHeight, decimals: 2)), \"polarity\": \(string(l.polarity.rawValue))}"
        return out
    }

    static func points(_ points: [Point]) -> String {
        "[" + points.map { "[\(number($0.x, decimals: 2)), \(number($0.y, decimals: 2))]" }.joined(separator: ", ") + "]"
    }

    static func value(_ v: StyleValue) -> String {
        switch v {
        case .text(let s): string(s)
        case .number(let d): number(d, decimals: 3)
        case .flag(let b): b ? "true" : "false"
        case .color(let c): "[" + c.map(String.init).joined(separator: ", ") + "]"
        case .colors(let cs): "[" + cs.map { "[" + $0.map(String.init).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
        }
    }

    /// `v` rounded to `decimals` places, written with integers (no locale, no exponent, no `-0`).
    public static func number(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "0" }
        var p = 1
        for _ in 0..<decimals { p *= 10 }
        let scaled = Int((abs(v) * Double(p)).rounded())
        let sign = v < 0 && scaled != 0 ? "-" : ""
        let whole = scaled / p, frac = scaled % p
        guard decimals > 0, frac != 0 else { return sign + String(whole) }
        var fracText = String(frac)
        fracText = String(repeating: "0", count: decimals - fracText.count) + fracText
        while fracText.hasSuffix("0") { fracText.removeLast() }
        return "\(sign)\(whole).\(fracText)"
    }

    /// A JSON string literal.
    public static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
