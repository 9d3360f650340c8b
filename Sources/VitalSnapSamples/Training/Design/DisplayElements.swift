import VitalSnapOCR

/// One line of digits (or a word) on a display, before it is placed.
struct TextLineSpec: Sendable {
    var role: SceneTextRole
    var field: FieldName?
    /// What the line shows and what a reader should report (`12.5`, `12:44`, `LO`, `005693.3`).
    var text: String
    var font: LineFont
    /// Height of the characters in device units.
    var digitHeight: Double
    /// Seven-segment cells of the field (at least what the text needs; the rest are blank on the left).
    var cells: Int
    /// Distance between cell starts, in digit heights.
    var pitch: Double
    /// The last digit drawn smaller (an electricity meter's tenths): its height over `digitHeight`.
    var smallLastDigit: Double?
    /// Decimal-point and colon segments present in the field (drawn as ghosts where unlit).
    var showsPoints: Bool
    var showsColon: Bool
    var color: RGBColor
    var letterI: LetterIStyle
}

/// Printed (or segment) small text: units, legends, logos.
struct LabelSpec: Sendable {
    var text: String
    /// Cap height in device units.
    var size: Double
    var color: RGBColor
    /// Stroke width over the cap height.
    var weight: Double
    /// A filled plate behind the text (a boxed legend such as an inverted `SYS` tag), or nil.
    var plate: RGBColor?
}

/// The symbols displays show besides digits.
enum IconKind: String, Sendable, Hashable, CaseIterable {
    case battery, heart, drop, bars, person, bell, arrow, signal
}

struct IconSpec: Sendable {
    var kind: IconKind
    var width: Double
    var height: Double
    var color: RGBColor
    /// Battery charge or lit bars, 0...1.
    var level: Double
}

/// A box-model layout of a display's contents, in device units: rows and columns of lines, labels and
/// icons, measured and then placed.
indirect enum LayoutBox: Sendable {
    enum Alignment: Sendable { case start, center, end }

    case line(TextLineSpec)
    case label(LabelSpec)
    case icon(IconSpec)
    /// A printed horizontal separator `length` long.
    case rule(length: Double, thickness: Double, color: RGBColor)
    case space(width: Double, height: Double)
    /// Side by side, aligned on the cross axis (start: top).
    case row([LayoutBox], gap: Double, align: Alignment)
    /// Stacked, aligned on the cross axis (start: left).
    case column([LayoutBox], gap: Double, align: Alignment)

    /// Width and height.
    var size: (width: Double, height: Double) {
        switch self {
        case .line(let spec): return (TextLineGeometry.width(of: spec), spec.digitHeight)
        case .label(let spec):
            let pad = spec.plate == nil ? 0 : spec.size * 0.5
            return (StrokeFont.width(of: spec.text, size: spec.size) + 2 * pad, spec.size + pad)
        case .icon(let spec): return (spec.width, spec.height)
        case .rule(let length, let thickness, _): return (length, thickness)
        case .space(let w, let h): return (w, h)
        case .row(let items, let gap, _):
            let sizes = items.map(\.size)
            return (sizes.reduce(0) { $0 + $1.width } + gap * Double(max(0, items.count - 1)), sizes.map(\.height).max() ?? 0)
        case .column(let items, let gap, _):
            let sizes = items.map(\.size)
            return (sizes.map(\.width).max() ?? 0, sizes.reduce(0) { $0 + $1.height } + gap * Double(max(0, items.count - 1)))
        }
    }

    /// Every leaf with its top-left corner, the box placed at (x, y).
    func placed(x: Double, y: Double) -> [PlacedElement] {
        switch self {
        case .line(let spec): return [.line(spec, x: x, y: y)]
        case .label(let spec): return [.label(spec, x: x, y: y)]
        case .icon(let spec): return [.icon(spec, x: x, y: y)]
        case .rule(let length, let thickness, let color): return [.rule(x: x, y: y, width: length, height: thickness, color: color)]
        case .space: return []
        case .row(let items, let gap, let align):
            let height = size.height
            var penX = x
            var out: [PlacedElement] = []
            for item in items {
                let s = item.size
                let dy = align == .start ? 0 : align == .center ? (height - s.height) / 2 : height - s.height
                out += item.placed(x: penX, y: y + dy)
                penX += s.width + gap
            }
            return out
        case .column(let items, let gap, let align):
            let width = size.width
            var penY = y
            var out: [PlacedElement] = []
            for item in items {
                let s = item.size
                let dx = align == .start ? 0 : align == .center ? (width - s.width) / 2 : width - s.width
                out += item.placed(x: x + dx, y: penY)
                penY += s.height + gap
            }
            return out
        }
    }
}

/// A leaf of a `LayoutBox` at its place (top-left corner, device units).
enum PlacedElement: Sendable {
    case line(TextLineSpec, x: Double, y: Double)
    case label(LabelSpec, x: Double, y: Double)
    case icon(IconSpec, x: Double, y: Double)
    case rule(x: Double, y: Double, width: Double, height: Double, color: RGBColor)
}
