/// How the characters of one text line are drawn.
public enum LineFont: Sendable, Hashable {
    /// Seven-segment cells: bar thickness, gap, slant and width in `style` (its `ends` is ignored), the bar
    /// ends in `shape`.
    case sevenSegment(SegmentStyle, SegmentShape)
    /// A colour screen's font: `StrokeFont` glyphs with strokes `weight` digit heights thick, each character
    /// `widthRatio` digit heights wide, leaning by `slant`.
    case stroke(weight: Double, widthRatio: Double, slant: Double)
    /// `DotMatrixFont`: 5 x 7 dots per character, each `dotFill` of its grid cell, round or square.
    case dotMatrix(dotFill: Double, round: Bool)

    /// Short description for the scene's style notes.
    var name: String {
        switch self {
        case .sevenSegment(_, let shape): "seven-segment-\(shape.rawValue)"
        case .stroke: "stroke"
        case .dotMatrix(_, let round): round ? "dot-matrix-round" : "dot-matrix-square"
        }
    }

    /// Stroke width as a fraction of the digit height.
    var strokeFraction: Double {
        switch self {
        case .sevenSegment(let style, _): style.thickness
        case .stroke(let weight, _, _): weight
        case .dotMatrix(let fill, _): fill / 7
        }
    }

    var slant: Double {
        switch self {
        case .sevenSegment(let style, _): style.slant
        case .stroke(_, _, let slant): slant
        case .dotMatrix: 0
        }
    }
}
