/// Draws one field of a display (its digit cells, decimal points, colon, dash) into a box of a canvas.
///
/// Cells divide the box evenly, as an OCR overlay layout would: cell i spans `[x + i*w/n, x + (i+1)*w/n)`.
/// The glyph is centred in its cell and its leftover space holds the decimal point and separators.
public struct FieldPainter: Sendable {
    public var style: SegmentStyle
    /// Grey level of lit segments.
    public var ink: Float
    /// Grey level of the display background (unlit segments are drawn relative to it).
    public var background: Float
    /// How many grey levels unlit segments differ from the background, towards the ink (0: invisible). Real
    /// LCDs show their unlit segments faintly, especially at an angle.
    public var ghostLevel: Float
    public var letterI: LetterIStyle

    public init(style: SegmentStyle, ink: Float, background: Float, ghostLevel: Float, letterI: LetterIStyle = .likeOne) {
        self.style = style
        self.ink = ink
        self.background = background
        self.ghostLevel = ghostLevel
        self.letterI = letterI
    }

    /// The glyph boxes of a field's `cellCount` cells inside the box, and the space left after each glyph.
    public func glyphs(
        x: Double, y: Double, width: Double, height: Double, cellCount: Int, roomForSeparators: Bool = false
    ) -> (glyphs: [SevenSegmentGlyph], spacing: Double) {
        let n = max(1, cellCount)
        let pitch = width / Double(n)
        let glyphHeight = height * 0.86
        let lean = style.slant * glyphHeight
        let widest = pitch * (roomForSeparators ? 0.7 : 0.8) - lean
        let glyphWidth = max(1, min(widest, glyphHeight * style.widthRatio))
        let top = y + (height - glyphHeight) / 2
        // In a narrow cell the horizontal segments would vanish between thick verticals: thin the strokes
        // so a horizontal segment stays at least about as long as the segments are thick.
        var style = style
        style.thickness = min(style.thickness, 0.27 * glyphWidth / glyphHeight)
        let glyphs = (0..<n).map { i in
            // Centre the sheared glyph (glyphWidth + lean wide) in its cell.
            let cellX = x + Double(i) * pitch
            return SevenSegmentGlyph(
                x: cellX + (pitch - glyphWidth - lean) / 2, y: top, width: glyphWidth, height: glyphHeight, style: style)
        }
        return (glyphs, pitch - glyphWidth)
    }

    /// Draws the cells. `showsPoints`: the display has decimal-point segments in this field (drawn as ghosts
    /// when unlit); `showsColon`: likewise for a clock colon. Lit polygons are also returned, for the halo
    /// of backlit displays.
    @discardableResult
    public func draw(
        _ cells: [DisplayCell], x: Double, y: Double, width: Double, height: Double,
        on canvas: inout FloatCanvas, showsPoints: Bool = false, showsColon: Bool = false
    ) -> [[CanvasPoint]] {
        let hasSeparators = cells.contains { $0.separatorAfter != nil } || showsColon
        let (glyphs, spacing) = glyphs(
            x: x, y: y, width: width, height: height, cellCount: cells.count, roomForSeparators: hasSeparators)
        let ghost = background + (ink > background ? ghostLevel : -ghostLevel)
        var lit: [[CanvasPoint]] = []
        var unlit: [[CanvasPoint]] = []
        for (i, (cell, glyph)) in zip(cells, glyphs).enumerated() {
            let on = SevenSegmentFont.segments(for: cell.character, letterI: letterI) ?? []
            for segment in GlyphSegments.each {
                if on.contains(segment) { lit.append(glyph.polygon(for: segment)) } else { unlit.append(glyph.polygon(for: segment)) }
            }
            let isLast = i == cells.count - 1
            if cell.pointAfter { lit.append(glyph.decimalPoint(spacing: spacing)) } else if showsPoints && !isLast {
                unlit.append(glyph.decimalPoint(spacing: spacing))
            }
            switch cell.separatorAfter {
            case .colon: lit.append(contentsOf: glyph.colon(spacing: spacing))
            case .dash: lit.append(glyph.dash(spacing: spacing))
            case nil:
                if showsColon && i == cells.count / 2 - 1 { unlit.append(contentsOf: glyph.colon(spacing: spacing)) }
            }
        }
        if ghostLevel > 0 {
            for polygon in unlit { canvas.fill(polygon, value: ghost) }
        }
        for polygon in lit { canvas.fill(polygon, value: ink) }
        return lit
    }
}
