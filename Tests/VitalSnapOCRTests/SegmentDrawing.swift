import Foundation
import VitalSnapImaging
import VitalSnapSamples
@testable import VitalSnapOCR

/// Seven-segment text for the reader's tests, drawn with the sample generator's glyph outlines (LCD-style
/// segments with pointed ends, one pixel of clear space between neighbours) and its anti-aliased polygon fill.
///
/// Which segments each character lights is written out here instead of being taken from `SegmentAlphabet`, so
/// the reader is not checked against its own table. Geometry is in *line coordinates*: x from the left edge of
/// the first cell, y from the top of the digits (digits occupy 0..<height).
struct SegmentText {
    var height = 32.0
    var width = 18.0
    var stroke = 4.0
    var gap = 1.0
    var pitch = 24.0
    /// Side of a decimal point.
    var dot = 4.0
    /// Italic slant: horizontal shift of the top per unit of height.
    var slant = 0.0

    static let patterns: [Character: String] = [
        "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg", "6": "acdefg",
        "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", "L": "def", "H": "bcefg", "E": "adefg", "r": "eg",
        "o": "cdeg",
    ]

    /// The same text `factor` times larger (the gap between segments stays one pixel).
    func scaled(_ factor: Double) -> SegmentText {
        SegmentText(
            height: height * factor, width: width * factor, stroke: stroke * factor, gap: gap, pitch: pitch * factor,
            dot: dot * factor, slant: slant)
    }

    func glyph(cell: Int) -> SevenSegmentGlyph {
        let style = SegmentStyle(thickness: stroke / height, gap: gap / height, slant: slant, ends: .hexagon, widthRatio: width / height)
        return SevenSegmentGlyph(x: Double(cell) * pitch, y: 0, width: width, height: height, style: style)
    }

    /// The outlines of each character of `text`: a space is an empty cell, a `.` a square dot on the baseline in
    /// the space after the previous cell (taking no cell of its own). `custom` gives the segments of
    /// placeholder characters, e.g. `["X": "abdefg"]` for an 8 without its c.
    func shapes(_ text: String, custom: [Character: String] = [:]) -> [(character: Character, polygons: [[CanvasPoint]])] {
        var out: [(Character, [[CanvasPoint]])] = []
        var cell = 0
        for ch in text {
            if ch == "." {
                let g = glyph(cell: cell - 1)
                let x0 = width + (pitch - width - dot) / 2
                let square = [(x0, height - dot), (x0 + dot, height - dot), (x0 + dot, height), (x0, height)].map { g.place($0.0, $0.1) }
                out.append((ch, [square]))
                continue
            }
            defer { cell += 1 }
            if ch == " " { continue }
            guard let pattern = custom[ch] ?? Self.patterns[ch] else { preconditionFailure("no pattern for \(ch)") }
            let g = glyph(cell: cell)
            out.append((ch, pattern.map { g.polygon(for: GlyphSegments(String($0))) }))
        }
        return out
    }

    func polygons(_ text: String, custom: [Character: String] = [:]) -> [[CanvasPoint]] {
        shapes(text, custom: custom).flatMap(\.polygons)
    }

    /// The outline's bounding box of each character other than dots, in line coordinates.
    func characterBoxes(_ text: String, custom: [Character: String] = [:]) -> [(x0: Double, y0: Double, x1: Double, y1: Double)] {
        shapes(text, custom: custom).filter { $0.character != "." }.map { shape in
            let points = shape.polygons.joined()
            return (points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!)
        }
    }
}

/// Where a line of text sits in a frame: the top-left corner of its first cell, and its direction (radians,
/// clockwise on screen since y points down).
struct Placement {
    var x: Double
    var y: Double
    var angle = 0.0

    func toFrame(_ p: CanvasPoint) -> CanvasPoint {
        let c = cos(angle), s = sin(angle)
        return CanvasPoint(x + p.x * c - p.y * s, y + p.x * s + p.y * c)
    }
}

enum Frames {
    /// A `width` x `height` image of `background` with `text` drawn in `ink` at `placement`. `ghost`: text drawn
    /// first in `ghostLevel` (the unlit segments of an LCD).
    static func render(
        _ text: String, as font: SegmentText = SegmentText(), width: Int, height: Int, placement: Placement,
        background: UInt8, ink: UInt8, custom: [Character: String] = [:], ghost: String? = nil, ghostLevel: UInt8 = 0
    ) -> GrayImage {
        var canvas = FloatCanvas(width: width, height: height, fill: Float(background))
        if let ghost {
            for polygon in font.polygons(ghost) { canvas.fill(polygon.map(placement.toFrame), value: Float(ghostLevel)) }
        }
        for polygon in font.polygons(text, custom: custom) { canvas.fill(polygon.map(placement.toFrame), value: Float(ink)) }
        return canvas.grayImage()
    }

    /// The frame-pixel box around a rectangle of line coordinates drawn at `placement`.
    static func frameBox(x0: Double, y0: Double, x1: Double, y1: Double, placement: Placement) -> PixelRect {
        let corners = [CanvasPoint(x0, y0), CanvasPoint(x1, y0), CanvasPoint(x1, y1), CanvasPoint(x0, y1)].map(placement.toFrame)
        let fx0 = Int(corners.map(\.x).min()!.rounded(.down)), fx1 = Int(corners.map(\.x).max()!.rounded(.up))
        let fy0 = Int(corners.map(\.y).min()!.rounded(.down)), fy1 = Int(corners.map(\.y).max()!.rounded(.up))
        return PixelRect(x: fx0, y: fy0, width: fx1 - fx0, height: fy1 - fy0)
    }
}
