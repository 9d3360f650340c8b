/// The drawing of one placed text line: its lit and unlit (ghost) outlines, the quad of its characters and
/// each character's cell, in device units.
///
/// Seven-segment lines use `SevenSegmentGlyph` (and `FieldCells` to lay the text into the field's cells,
/// right-aligned with blank leading cells); font lines use `StrokeFont`. The quad runs from the first shown
/// character's left edge to the last one's right edge and from the top to the bottom of the (full-size)
/// digits, leaning with the characters (a parallelogram for slanted digits, so its corners are the
/// characters' own); blank cells, legends and icons beside the line are outside it.
struct TextLineGeometry {
    var lit: [[CanvasPoint]] = []
    var ghosts: [[CanvasPoint]] = []
    var quad: QuadCorners
    var cells: [QuadCorners] = []
    /// Stroke width in device units (what blur must stay well below for the line to be readable).
    var strokeWidth: Double

    /// The placed width of a line: from its first cell (blank or not) to the end of its last character.
    static func width(of spec: TextLineSpec) -> Double {
        let h = spec.digitHeight
        switch spec.font {
        case .sevenSegment(let style, _):
            let n = max(1, spec.cells)
            let gw = glyphWidth(spec, style)
            let lastScale = spec.smallLastDigit ?? 1
            return Double(n - 1) * spec.pitch * h + gw * lastScale + style.slant * h
        case .stroke(_, let widthRatio, let slant):
            return strokeAdvances(spec.text, h: h, widthRatio: widthRatio).total + slant * h
        case .dotMatrix:
            let dot = h / 7
            let columns = spec.text.reduce(0) { $0 + DotMatrixFont.columns($1) + 1 }
            return Double(max(1, columns - 1)) * dot
        }
    }

    static func glyphWidth(_ spec: TextLineSpec, _ style: SegmentStyle) -> Double {
        min(style.widthRatio * spec.digitHeight, spec.pitch * spec.digitHeight * 0.86)
    }

    /// Advance of each character of a font line (tabular: every character but `.` and `:` is one digit
    /// wide) and the total width (the last character's own width instead of its advance).
    static func strokeAdvances(_ text: String, h: Double, widthRatio: Double) -> (advances: [Double], inks: [Double], total: Double) {
        var advances: [Double] = [], inks: [Double] = []
        for c in text {
            let narrow = c == "." || c == ":"
            inks.append(narrow ? 0.2 * h : widthRatio * h)
            advances.append(narrow ? 0.36 * h : (widthRatio + 0.22) * h)
        }
        let total = advances.dropLast().reduce(0, +) + (inks.last ?? 0)
        return (advances, inks, total)
    }

    /// The box from `left` to `right` (at the baseline), `height` high, its top moved right by `slant * height`.
    static func leaning(left: Double, right: Double, y: Double, height: Double, slant: Double) -> QuadCorners {
        QuadCorners(
            topLeft: CanvasPoint(left + slant * height, y), topRight: CanvasPoint(right + slant * height, y),
            bottomRight: CanvasPoint(right, y + height), bottomLeft: CanvasPoint(left, y + height))
    }

    init(_ spec: TextLineSpec, x: Double, y: Double) {
        let h = spec.digitHeight
        strokeWidth = spec.font.strokeFraction * h
        quad = QuadCorners(x: x, y: y, width: 1, height: h)
        switch spec.font {
        case .sevenSegment(let style, let shape):
            layoutSegments(spec, style: style, shape: shape, x: x, y: y)
        case .stroke(let weight, let widthRatio, let slant):
            layoutStrokes(spec, weight: weight, widthRatio: widthRatio, slant: slant, x: x, y: y)
        case .dotMatrix(let fill, let round):
            layoutDots(spec, fill: fill, round: round, x: x, y: y)
        }
    }

    private mutating func layoutSegments(_ spec: TextLineSpec, style: SegmentStyle, shape: SegmentShape, x: Double, y: Double) {
        let h = spec.digitHeight
        let n = max(1, spec.cells)
        let cells = FieldCells.layout(spec.text, cellCount: n, letterI: spec.letterI)
            ?? Array(repeating: DisplayCell(" "), count: n)
        let pitch = spec.pitch * h
        let gw = Self.glyphWidth(spec, style)
        var style = style
        style.ends = shape.ends
        // As `FieldPainter`: in a narrow cell keep a horizontal bar at least about as long as it is thick.
        style.thickness = min(style.thickness, 0.27 * gw / h)
        strokeWidth = style.thickness * h
        let spacing = pitch - gw
        var firstShown: Int?
        var right = x + gw  // the last glyph's bottom-right
        for (i, cell) in cells.enumerated() {
            let isLast = i == n - 1
            let k = isLast ? (spec.smallLastDigit ?? 1) : 1
            let glyph = SevenSegmentGlyph(
                x: x + Double(i) * pitch, y: y + h * (1 - k), width: gw * k, height: h * k, style: style)
            let on = SevenSegmentFont.segments(for: cell.character, letterI: spec.letterI) ?? []
            for segment in GlyphSegments.each {
                let polygon = shape.polygon(segment, of: glyph)
                if on.contains(segment) { lit.append(polygon) } else { ghosts.append(polygon) }
            }
            if cell.pointAfter {
                lit.append(glyph.decimalPoint(spacing: spacing))
            } else if spec.showsPoints && !isLast {
                ghosts.append(glyph.decimalPoint(spacing: spacing))
            }
            switch cell.separatorAfter {
            case .colon: lit += glyph.colon(spacing: spacing)
            case .dash: lit.append(glyph.dash(spacing: spacing))
            case nil:
                if spec.showsColon && i == n / 2 - 1 { ghosts += glyph.colon(spacing: spacing) }
            }
            if cell.character != " " {
                if firstShown == nil { firstShown = i }
                self.cells.append(QuadCorners(
                    topLeft: glyph.place(0, 0), topRight: glyph.place(glyph.width, 0),
                    bottomRight: glyph.place(glyph.width, glyph.height), bottomLeft: glyph.place(0, glyph.height)))
            }
            right = glyph.x + glyph.width
        }
        let left = x + Double(firstShown ?? 0) * pitch
        quad = Self.leaning(left: left, right: max(left + 1e-3, right), y: y, height: h, slant: style.slant)
    }

    private mutating func layoutStrokes(
        _ spec: TextLineSpec, weight: Double, widthRatio: Double, slant: Double, x: Double, y: Double
    ) {
        let h = spec.digitHeight
        let sw = weight * h
        let (advances, inks, total) = Self.strokeAdvances(spec.text, h: h, widthRatio: widthRatio)
        // Strokes stay inside the character box: the grid is inset by half a stroke.
        let size = h - sw
        let bottom = y + h
        func shear(_ p: CanvasPoint) -> CanvasPoint { CanvasPoint(p.x + slant * (bottom - p.y), p.y) }
        var penX = x
        for (i, c) in spec.text.enumerated() {
            let ink = inks[i]
            let narrow = c == "." || c == ":"
            // The 4-unit glyph grid stretched over the ink box less a stroke (dots keep their square shape).
            let widthScale = narrow ? 1 : max(0.3, (ink - sw) / 4 / (size / 6))
            let ox = narrow ? penX + ink / 2 - 0.5 * size / 6 : penX + sw / 2
            let polygons = StrokeFont.glyphPolygons(c, x: ox, y: y + sw / 2, size: size, strokeWidth: sw, widthScale: widthScale)
            lit += polygons.map { $0.map(shear) }
            cells.append(QuadCorners(
                topLeft: shear(CanvasPoint(penX, y)), topRight: shear(CanvasPoint(penX + ink, y)),
                bottomRight: CanvasPoint(penX + ink, bottom), bottomLeft: CanvasPoint(penX, bottom)))
            penX += advances[i]
        }
        quad = Self.leaning(left: x, right: x + max(1e-3, total), y: y, height: h, slant: slant)
    }

    private mutating func layoutDots(_ spec: TextLineSpec, fill: Double, round: Bool, x: Double, y: Double) {
        let dot = spec.digitHeight / 7
        let side = dot * fill
        func shape(_ cx: Double, _ cy: Double) -> [CanvasPoint] {
            round
                ? Shapes.ellipse(center: CanvasPoint(cx, cy), radiusX: side / 2, radiusY: side / 2)
                : Shapes.rectangle(x: cx - side / 2, y: cy - side / 2, width: side, height: side)
        }
        var penX = x
        for c in spec.text {
            let rows = DotMatrixFont.rows(c) ?? Array(repeating: "     ", count: 7)
            let columns = DotMatrixFont.columns(c)
            for (r, row) in rows.enumerated() {
                for (k, mark) in row.enumerated() {
                    let polygon = shape(penX + (Double(k) + 0.5) * dot, y + (Double(r) + 0.5) * dot)
                    if mark == "#" { lit.append(polygon) } else { ghosts.append(polygon) }
                }
            }
            cells.append(QuadCorners(x: penX, y: y, width: Double(columns) * dot, height: spec.digitHeight))
            penX += Double(columns + 1) * dot
        }
        quad = QuadCorners(x: x, y: y, width: max(1e-3, penX - dot - x), height: spec.digitHeight)
    }
}
