import XCTest
@testable import VitalSnapSamples

final class GlyphTests: XCTestCase {
    /// The standard seven-segment table, written out independently of the font.
    static let standard: [Character: String] = [
        "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg", "6": "acdefg",
        "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g", "L": "def", "O": "abcdef", "H": "bcefg",
        "E": "adefg", "r": "eg", "o": "cdeg", " ": "",
    ]

    func testFontMatchesTheStandardTable() {
        for (c, letters) in Self.standard {
            XCTAssertEqual(SevenSegmentFont.segments(for: c), GlyphSegments(letters), "character \(c)")
        }
        XCTAssertEqual(SevenSegmentFont.segments(for: "I", letterI: .likeOne), GlyphSegments("bc"))
        XCTAssertEqual(SevenSegmentFont.segments(for: "I", letterI: .left), GlyphSegments("ef"))
        XCTAssertNil(SevenSegmentFont.segments(for: "x"))
    }

    /// Draws each character and samples the pixel at every segment's centre: exactly the table's segments are
    /// dark, for hexagon and square segments, upright and slanted.
    func testRenderedSegmentsMatchTheTable() {
        let styles = [
            SegmentStyle(thickness: 0.13, gap: 0.02, slant: 0, ends: .hexagon),
            SegmentStyle(thickness: 0.14, gap: 0.03, slant: 0.15, ends: .rectangle),
            SegmentStyle(thickness: 0.12, gap: 0.02, slant: 0.2, ends: .hexagon, widthRatio: 0.6),
        ]
        for style in styles {
            let painter = FieldPainter(style: style, ink: 0, background: 255, ghostLevel: 0)
            for (c, letters) in Self.standard {
                var canvas = FloatCanvas(width: 50, height: 70, fill: 255)
                painter.draw([DisplayCell(c)], x: 2, y: 2, width: 46, height: 66, on: &canvas)
                let glyph = painter.glyphs(x: 2, y: 2, width: 46, height: 66, cellCount: 1).glyphs[0]
                var lit = GlyphSegments()
                for segment in GlyphSegments.each {
                    let p = glyph.center(of: segment)
                    let v = canvas[Int(p.x), Int(p.y)]
                    XCTAssert(v < 40 || v > 215, "segment \(segment) of \(c) is neither on nor off (\(v))")
                    if v < 128 { lit.insert(segment) }
                }
                XCTAssertEqual(lit, GlyphSegments(letters), "character '\(c)' with \(style.ends) slant \(style.slant)")
            }
        }
    }

    func testOneLightsOnlyBAndC() {
        let painter = FieldPainter(style: SegmentStyle(thickness: 0.13, gap: 0.02, slant: 0.1, ends: .hexagon), ink: 20, background: 200, ghostLevel: 0)
        var canvas = FloatCanvas(width: 40, height: 60, fill: 200)
        painter.draw([DisplayCell("1")], x: 0, y: 0, width: 40, height: 60, on: &canvas)
        let glyph = painter.glyphs(x: 0, y: 0, width: 40, height: 60, cellCount: 1).glyphs[0]
        let dark = GlyphSegments.each.filter { s in
            let p = glyph.center(of: s)
            return canvas[Int(p.x), Int(p.y)] < 100
        }
        XCTAssertEqual(dark, [.b, .c])
    }

    func testGhostSegmentsAreFaint() {
        let painter = FieldPainter(style: SegmentStyle(thickness: 0.13, gap: 0.02, slant: 0, ends: .hexagon), ink: 40, background: 180, ghostLevel: 8)
        var canvas = FloatCanvas(width: 40, height: 60, fill: 180)
        painter.draw([DisplayCell("1")], x: 0, y: 0, width: 40, height: 60, on: &canvas)
        let glyph = painter.glyphs(x: 0, y: 0, width: 40, height: 60, cellCount: 1).glyphs[0]
        let a = glyph.center(of: .a), b = glyph.center(of: .b)
        XCTAssertEqual(canvas[Int(a.x), Int(a.y)], 172, accuracy: 0.5, "unlit segment a is 8 levels towards the ink")
        XCTAssertEqual(canvas[Int(b.x), Int(b.y)], 40, accuracy: 0.5)
    }

    func testLayoutRightAlignsAndPlacesPointsAndSeparators() throws {
        let mmol = try XCTUnwrap(FieldCells.layout("5.6", cellCount: 3))
        XCTAssertEqual(mmol, [DisplayCell(" "), DisplayCell("5", pointAfter: true), DisplayCell("6")])

        let weight = try XCTUnwrap(FieldCells.layout("90.8", cellCount: 4))
        XCTAssertEqual(weight.map(\.character), [" ", "9", "0", "8"])
        XCTAssertEqual(weight.map(\.pointAfter), [false, false, true, false])

        let time = try XCTUnwrap(FieldCells.layout("12:34", cellCount: 4))
        XCTAssertEqual(time.map(\.character), ["1", "2", "3", "4"])
        XCTAssertEqual(time[1].separatorAfter, .colon)

        let date = try XCTUnwrap(FieldCells.layout("05-17", cellCount: 4))
        XCTAssertEqual(date.map(\.character), ["0", "5", "1", "7"])
        XCTAssertEqual(date[1].separatorAfter, .dash)

        XCTAssertEqual(FieldCells.layout("LO", cellCount: 3)?.map(\.character), [" ", "L", "O"])
        XCTAssertEqual(FieldCells.layout("Err", cellCount: 3)?.map(\.character), ["E", "r", "r"])
        XCTAssertEqual(FieldCells.layout("-5", cellCount: 3)?.map(\.character), [" ", "-", "5"])
        XCTAssertNil(FieldCells.layout("1234", cellCount: 3), "does not fit")
        XCTAssertNil(FieldCells.layout("1x", cellCount: 3), "not a seven-segment character")
    }

    func testDecimalPointIsDrawnAfterItsDigit() {
        let painter = FieldPainter(style: SegmentStyle(thickness: 0.13, gap: 0.02, slant: 0, ends: .hexagon), ink: 0, background: 255, ghostLevel: 0)
        var canvas = FloatCanvas(width: 120, height: 60, fill: 255)
        let cells = FieldCells.layout("5.6", cellCount: 3)!
        painter.draw(cells, x: 0, y: 0, width: 120, height: 60, on: &canvas)
        let (glyphs, spacing) = painter.glyphs(x: 0, y: 0, width: 120, height: 60, cellCount: 3)
        let point = glyphs[1].decimalPointCenter(spacing: spacing)
        XCTAssertLessThan(canvas[Int(point.x), Int(point.y)], 60)
        let noPoint = glyphs[0].decimalPointCenter(spacing: spacing)
        XCTAssertEqual(canvas[Int(noPoint.x), Int(noPoint.y)], 255)
        // The leading cell is blank: its segment g is unlit.
        let g0 = glyphs[0].center(of: .g)
        XCTAssertEqual(canvas[Int(g0.x), Int(g0.y)], 255)
    }
}
