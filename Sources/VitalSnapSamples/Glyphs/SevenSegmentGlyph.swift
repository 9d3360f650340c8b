/// The geometry of one digit cell: where each segment, the decimal point and separators are drawn.
///
/// The glyph is laid out upright in its box and then sheared: a point at height y moves right by
/// `slant * (bottom - y)`, so the bottom edge stays where the box says and the top leans right.
public struct SevenSegmentGlyph: Sendable, Hashable {
    /// The upright box before shear.
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var style: SegmentStyle

    public init(x: Double, y: Double, width: Double, height: Double, style: SegmentStyle) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.style = style
    }

    var t: Double { style.thickness * height }
    var gap: Double { style.gap * height }

    /// A point given in the upright box (0,0 top-left) moved to canvas coordinates with the shear.
    public func place(_ ux: Double, _ uy: Double) -> CanvasPoint {
        CanvasPoint(x + ux + style.slant * (height - uy), y + uy)
    }

    /// The outline of one segment (pass a single segment such as `.b`).
    public func polygon(for segment: GlyphSegments) -> [CanvasPoint] {
        let w = width, h = height, t = t, g = gap
        let upright: [(Double, Double)]
        switch style.ends {
        case .hexagon:
            switch segment {
            case .a: upright = horizontalHexagon(t / 2 + g, w - t / 2 - g, t / 2)
            case .g: upright = horizontalHexagon(t / 2 + g, w - t / 2 - g, h / 2)
            case .d: upright = horizontalHexagon(t / 2 + g, w - t / 2 - g, h - t / 2)
            case .f: upright = verticalHexagon(t / 2 + g, h / 2 - g, t / 2)
            case .b: upright = verticalHexagon(t / 2 + g, h / 2 - g, w - t / 2)
            case .e: upright = verticalHexagon(h / 2 + g, h - t / 2 - g, t / 2)
            case .c: upright = verticalHexagon(h / 2 + g, h - t / 2 - g, w - t / 2)
            default: preconditionFailure("polygon(for:) takes one segment, got \(segment)")
            }
        case .rectangle:
            switch segment {
            case .a: upright = box(t + g, 0, w - t - g, t)
            case .g: upright = box(t + g, h / 2 - t / 2, w - t - g, h / 2 + t / 2)
            case .d: upright = box(t + g, h - t, w - t - g, h)
            case .f: upright = box(0, g, t, h / 2 - g / 2)
            case .b: upright = box(w - t, g, w, h / 2 - g / 2)
            case .e: upright = box(0, h / 2 + g / 2, t, h - g)
            case .c: upright = box(w - t, h / 2 + g / 2, w, h - g)
            default: preconditionFailure("polygon(for:) takes one segment, got \(segment)")
            }
        }
        return upright.map { place($0.0, $0.1) }
    }

    /// The middle of a segment: a pixel here is inside the segment whatever the style.
    public func center(of segment: GlyphSegments) -> CanvasPoint {
        let w = width, h = height, t = t
        let upper = (t / 2 + h / 2) / 2, lower = (h / 2 + h - t / 2) / 2
        switch (segment, style.ends) {
        case (.a, .hexagon): return place(w / 2, t / 2)
        case (.a, .rectangle): return place(w / 2, t / 2)
        case (.g, _): return place(w / 2, h / 2)
        case (.d, _): return place(w / 2, h - t / 2)
        case (.f, _): return place(t / 2, upper)
        case (.b, _): return place(w - t / 2, upper)
        case (.e, _): return place(t / 2, lower)
        case (.c, _): return place(w - t / 2, lower)
        default: preconditionFailure("center(of:) takes one segment, got \(segment)")
        }
    }

    /// A decimal point in the space after the glyph (`spacing` wide), sitting on the baseline.
    public func decimalPoint(spacing: Double) -> [CanvasPoint] {
        let side = min(t * 1.1, spacing * 0.75)
        let cx = width + spacing / 2
        return square(cx, height - side / 2, side)
    }

    /// The centre of the decimal point drawn by `decimalPoint(spacing:)`.
    public func decimalPointCenter(spacing: Double) -> CanvasPoint {
        let side = min(t * 1.1, spacing * 0.75)
        return place(width + spacing / 2, height - side / 2)
    }

    /// The two dots of a clock's colon in the space after the glyph.
    public func colon(spacing: Double) -> [[CanvasPoint]] {
        let side = min(t * 0.95, spacing * 0.7)
        let cx = width + spacing / 2
        return [square(cx, height * 0.3, side), square(cx, height * 0.72, side)]
    }

    /// A short dash at mid-height in the space after the glyph (the separator of a date such as 05-17).
    public func dash(spacing: Double) -> [CanvasPoint] {
        let length = max(spacing * 0.8, t)
        let cx = width + spacing / 2
        return box(cx - length / 2, height / 2 - t * 0.4, cx + length / 2, height / 2 + t * 0.4).map { place($0.0, $0.1) }
    }

    private func square(_ cx: Double, _ cy: Double, _ side: Double) -> [CanvasPoint] {
        box(cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2).map { place($0.0, $0.1) }
    }

    private func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [(Double, Double)] {
        [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    }

    /// A horizontal bar from x0 to x1 centred on y, with pointed ends (shortened tips if the bar is short).
    private func horizontalHexagon(_ x0: Double, _ x1: Double, _ y: Double) -> [(Double, Double)] {
        let h = t / 2
        let tip = min(h, max(0, (x1 - x0) / 2))
        return [(x0, y), (x0 + tip, y - h), (x1 - tip, y - h), (x1, y), (x1 - tip, y + h), (x0 + tip, y + h)]
    }

    private func verticalHexagon(_ y0: Double, _ y1: Double, _ x: Double) -> [(Double, Double)] {
        let h = t / 2
        let tip = min(h, max(0, (y1 - y0) / 2))
        return [(x, y0), (x + h, y0 + tip), (x + h, y1 - tip), (x, y1), (x - h, y1 - tip), (x - h, y0 + tip)]
    }
}
