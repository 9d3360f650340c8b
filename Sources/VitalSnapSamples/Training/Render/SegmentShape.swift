import Foundation

/// The end shape of seven-segment bars in the training scenes: the grey renderer's two (`SegmentStyle.Ends`)
/// and rounded bars (stadiums), which some LCDs and most cheap LED modules have.
public enum SegmentShape: String, Sendable, Hashable, CaseIterable {
    /// Pointed (bevelled) ends meeting at 45 degrees.
    case hexagon
    /// Square-ended bars.
    case square
    /// Bars with semicircular ends.
    case rounded

    /// The grey renderer's end style that `SevenSegmentGlyph` draws for this shape (rounded bars are built
    /// from the square layout).
    var ends: SegmentStyle.Ends { self == .hexagon ? .hexagon : .rectangle }

    /// The outline of one segment of `glyph` (whose style's `ends` must be `self.ends`).
    func polygon(_ segment: GlyphSegments, of glyph: SevenSegmentGlyph) -> [CanvasPoint] {
        guard self == .rounded else { return glyph.polygon(for: segment) }
        let w = glyph.width, h = glyph.height
        let t = glyph.style.thickness * h, g = glyph.style.gap * h
        // Bar axes in the upright box: the square layout's bars, ends pulled in by half a thickness so that
        // the rounded tips do not touch their neighbours.
        let (a, b): ((Double, Double), (Double, Double))
        switch segment {
        case .a: (a, b) = ((t + g, t / 2), (w - t - g, t / 2))
        case .g: (a, b) = ((t + g, h / 2), (w - t - g, h / 2))
        case .d: (a, b) = ((t + g, h - t / 2), (w - t - g, h - t / 2))
        case .f: (a, b) = ((t / 2, t / 2 + g), (t / 2, h / 2 - g / 2))
        case .b: (a, b) = ((w - t / 2, t / 2 + g), (w - t / 2, h / 2 - g / 2))
        case .e: (a, b) = ((t / 2, h / 2 + g / 2), (t / 2, h - t / 2 - g))
        case .c: (a, b) = ((w - t / 2, h / 2 + g / 2), (w - t / 2, h - t / 2 - g))
        default: preconditionFailure("polygon(_:of:) takes one segment, got \(segment)")
        }
        return Self.stadium(from: a, to: b, radius: t / 2).map { glyph.place($0.0, $0.1) }
    }

    /// A bar from `a` to `b` (upright box coordinates) with semicircular ends of `radius`.
    static func stadium(from a: (Double, Double), to b: (Double, Double), radius r: Double) -> [(Double, Double)] {
        let dx = b.0 - a.0, dy = b.1 - a.1
        let angle = atan2(dy, dx)
        let steps = 6
        var out: [(Double, Double)] = []
        // Around b from angle - 90 to angle + 90 degrees, then around a from angle + 90 to angle + 270.
        for i in 0...steps {
            let t = angle - Double.pi / 2 + Double.pi * Double(i) / Double(steps)
            out.append((b.0 + r * cos(t), b.1 + r * sin(t)))
        }
        for i in 0...steps {
            let t = angle + Double.pi / 2 + Double.pi * Double(i) / Double(steps)
            out.append((a.0 + r * cos(t), a.1 + r * sin(t)))
        }
        return out
    }
}
