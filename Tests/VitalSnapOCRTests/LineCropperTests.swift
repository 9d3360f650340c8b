import Foundation
import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

/// `LineCropper` against the crop convention of Training/README.md: geometry of the map, the width formula,
/// what lands on which crop rows at any angle, clamping at the border, and the halving path.
final class LineCropperTests: XCTestCase {
    /// A grey image with a "line" drawn in the quad's own coordinates: inside the quad the value rises from 60
    /// at its left edge to 220 at its right edge; outside it is 20. Whatever the angle, a correct crop shows
    /// the ramp left to right on the digit rows and dark margins above and below.
    func lineImage(width: Int, height: Int, quad: LineQuad) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        let c = quad.center, e = quad.direction, d = quad.down
        let length = quad.length, h = quad.digitHeight
        for y in 0..<height {
            for x in 0..<width {
                let px = Double(x) + 0.5 - c.x, py = Double(y) + 0.5 - c.y
                let along = px * e.x + py * e.y, across = px * d.x + py * d.y
                if abs(across) <= h / 2 && abs(along) <= length / 2 {
                    image[x, y] = UInt8(60 + 160 * (along + length / 2) / length)
                } else {
                    image[x, y] = 20
                }
            }
        }
        return image
    }

    /// A smooth but non-trivial image: two crossed sines and a diagonal ramp.
    func textured(width: Int, height: Int) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let v = 128 + 60 * sin(Double(x) * 0.21) * cos(Double(y) * 0.13) + 0.25 * Double(x - y)
                image[x, y] = UInt8(min(255, max(0, v.rounded())))
            }
        }
        return image
    }

    func testWidthFollowsTheFormula() {
        // ceil4(round(20 L / h) + 12), clamped to 16...512.
        XCTAssertEqual(LineCropper.width(length: 100, digitHeight: 20), 112)
        XCTAssertEqual(LineCropper.width(length: 50, digitHeight: 20), 64)  // 62 -> 64
        XCTAssertEqual(LineCropper.width(length: 30, digitHeight: 40), 28)  // 15 + 12 = 27 -> 28
        XCTAssertEqual(LineCropper.width(length: 1, digitHeight: 20), 16)  // 13 -> at least 16
        XCTAssertEqual(LineCropper.width(length: 2000, digitHeight: 10), 512)
        // 20 L / h = 44.5 rounds to even (44): 56; rounding up would give 45 + 12 = 57 -> 60.
        XCTAssertEqual(LineCropper.width(length: 44.5, digitHeight: 20), 56)
        let quad = LineQuad(center: Point(x: 50, y: 40), angle: 1.1, length: 75, digitHeight: 15)
        XCTAssertEqual(LineCropper.width(for: quad), 112)  // 100 + 12
    }

    func testQuadGeometryFromCorners() {
        let quad = LineQuad(center: Point(x: 30, y: 20), angle: .pi / 2, length: 40, digitHeight: 10)
        // Reading downwards: e = (0, 1), d = e turned +90 degrees = (-1, 0).
        XCTAssertEqual(quad.direction.x, 0, accuracy: 1e-12)
        XCTAssertEqual(quad.direction.y, 1, accuracy: 1e-12)
        XCTAssertEqual(quad.down.x, -1, accuracy: 1e-12)
        XCTAssertEqual(quad.down.y, 0, accuracy: 1e-12)
        XCTAssertEqual(quad.length, 40, accuracy: 1e-9)
        XCTAssertEqual(quad.digitHeight, 10, accuracy: 1e-9)
        XCTAssertEqual(quad.center.x, 30, accuracy: 1e-9)
        XCTAssertEqual(quad.center.y, 20, accuracy: 1e-9)
        // The first character's top-left is on the right (x = 35) at the top of the line (y = 0).
        XCTAssertEqual(quad.topLeft.x, 35, accuracy: 1e-9)
        XCTAssertEqual(quad.topLeft.y, 0, accuracy: 1e-9)
    }

    func testMapSendsDigitRowsToTheQuadsTopAndBottomEdges() {
        for degrees in [0.0, 17, 90, 180, 270, -33] {
            let quad = LineQuad(center: Point(x: 120, y: 90), angle: degrees * .pi / 180, length: 70, digitHeight: 14)
            let map = LineCropper.cropToImage(quad)
            let w = Double(LineCropper.width(for: quad))
            let halfLength = 10 * quad.length / quad.digitHeight  // in crop pixels
            func check(_ u: Double, _ v: Double, _ expected: Point, _ what: String) {
                let p = map.apply(u, v)
                XCTAssertEqual(p.x, expected.x, accuracy: 1e-9, "\(what) at \(degrees) degrees")
                XCTAssertEqual(p.y, expected.y, accuracy: 1e-9, "\(what) at \(degrees) degrees")
            }
            check(w / 2 - halfLength, 6, quad.topLeft, "row 6, left end")
            check(w / 2 + halfLength, 6, quad.topRight, "row 6, right end")
            check(w / 2 + halfLength, 26, quad.bottomRight, "row 26, right end")
            check(w / 2 - halfLength, 26, quad.bottomLeft, "row 26, left end")
            check(w / 2, 16, quad.center, "crop centre")
        }
    }

    func testCropShowsTheLineUprightAtAnyAngle() {
        for degrees in [0.0, 90, 180, 270, 24, -150] {
            for h in [18.0, 33.0] {  // s = 0.9 (no halving) and s = 1.65
                let quad = LineQuad(center: Point(x: 80, y: 70), angle: degrees * .pi / 180, length: 4 * h, digitHeight: h)
                let image = lineImage(width: 160, height: 140, quad: quad)
                var cropper = LineCropper()
                let (crop, _) = cropper.crop(image, quad: quad)
                let what = "\(degrees) degrees, h \(h)"
                XCTAssertEqual(crop.height, 32, what)
                XCTAssertEqual(crop.width, LineCropper.width(for: quad), what)  // 80 + 12 = 92
                // Margins above and below the band: background.
                for v in [0, 1, 2, 3, 29, 30, 31] {
                    for u in stride(from: 10, to: crop.width - 10, by: 7) {
                        XCTAssertEqual(Int(crop[u, v]), 20, accuracy: 2, "\(what): (\(u), \(v))")
                    }
                }
                // On the digit rows, the ramp rises left to right; beyond the ends it is background.
                let left = LineCropper.margin + 3, right = crop.width - LineCropper.margin - 4
                for v in [9, 16, 23] {
                    XCTAssertEqual(Int(crop[1, v]), 20, accuracy: 2, "\(what): left margin")
                    XCTAssertEqual(Int(crop[crop.width - 2, v]), 20, accuracy: 2, "\(what): right margin")
                    XCTAssertLessThan(Int(crop[left, v]), 90, what)
                    XCTAssertGreaterThan(Int(crop[right, v]), 190, what)
                    var previous = 0
                    for u in stride(from: left, through: right, by: 4) {
                        XCTAssertGreaterThanOrEqual(Int(crop[u, v]), previous - 1, "\(what): ramp at (\(u), \(v))")
                        previous = Int(crop[u, v])
                    }
                }
            }
        }
    }

    func testSamplesOutsideTheImageRepeatTheEdgePixels() {
        // Columns and rows carry distinct values; the line hangs over the left and top borders.
        var image = GrayImage(width: 40, height: 30)
        for y in 0..<30 { for x in 0..<40 { image[x, y] = UInt8(5 * x + y) } }
        let quad = LineQuad(center: Point(x: 2, y: 3), angle: 0, length: 30, digitHeight: 20)  // s = 1
        var cropper = LineCropper()
        let (crop, map) = cropper.crop(image, quad: quad)
        var checked = 0
        for v in 0..<32 {
            for u in 0..<crop.width {
                let p = map.apply(Double(u) + 0.5, Double(v) + 0.5)
                // Pixel centres at integers for the sampler; s = 1 puts samples on pixel centres.
                let sx = min(39, max(0, Int((p.x - 0.5).rounded()))), sy = min(29, max(0, Int((p.y - 0.5).rounded())))
                if p.x < 0.5 || p.y < 0.5 {
                    XCTAssertEqual(crop[u, v], image[sx, sy], "(\(u), \(v)) samples \(p.x), \(p.y)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 100, "the crop reaches past the border")
        XCTAssertEqual(crop[0, 0], image[0, 0])
    }

    /// s = 4 with samples on the centres of 4x4 blocks: two halvings and a bilinear sample at a pixel centre,
    /// which is the 4x4 block mean give or take the two roundings.
    func testHalvingMatchesADirectAreaAverage() {
        let image = textured(width: 300, height: 220)
        let w = LineCropper.width(length: 240, digitHeight: 80)  // 60 + 12 = 72
        XCTAssertEqual(w, 72)
        // Level-2 sampler x = c.x / 4 + u - W/2: integer when c.x = 4 (W/2 + m); likewise y with 16.
        let quad = LineQuad(center: Point(x: 4 * Double(w / 2 + 1), y: 4 * Double(16 + 3)), angle: 0, length: 240, digitHeight: 80)
        XCTAssertEqual(LineCropper.halvings(scale: LineCropper.scale(for: quad)), 2)
        var cropper = LineCropper()
        let (crop, map) = cropper.crop(image, quad: quad)
        var worst = 0
        for v in 0..<32 {
            for u in 0..<w {
                let p = map.apply(Double(u) + 0.5, Double(v) + 0.5)
                let bx = Int((p.x / 4).rounded(.down)), by = Int((p.y / 4).rounded(.down))
                guard bx >= 0, by >= 0, 4 * bx + 4 <= image.width, 4 * by + 4 <= image.height else { continue }
                var sum = 0
                for y in 0..<4 { for x in 0..<4 { sum += Int(image[4 * bx + x, 4 * by + y]) } }
                worst = max(worst, abs(Int(crop[u, v]) - Int((Double(sum) / 16).rounded())))
            }
        }
        XCTAssertLessThanOrEqual(worst, 1)
    }

    /// Halving only the region the crop needs gives the pixels of halving the whole image (odd sizes, the line
    /// reaching over the border, rotated), with the level chosen as floor(log2 s).
    func testRegionHalvingEqualsWholeImageHalving() {
        let image = textured(width: 333, height: 251)
        let cases: [(Point, Double, Double, Double)] = [  // centre, angle (degrees), length, digit height
            (Point(x: 160, y: 120), 0, 300, 60),  // s = 3: one halving
            (Point(x: 100, y: 70), 37, 180, 130),  // s = 6.5: two
            (Point(x: 10, y: 240), 90, 400, 170),  // over two borders, s = 8.5: three
            (Point(x: 320, y: 8), 200, 150, 44),  // s = 2.2
            (Point(x: 160, y: 120), 12, 90, 40),  // s = 2: no halving
        ]
        for (center, degrees, length, h) in cases {
            let quad = LineQuad(center: center, angle: degrees * .pi / 180, length: length, digitHeight: h)
            let k = LineCropper.halvings(scale: h / 20)
            var level = image
            for _ in 0..<k { level = Self.halveWhole(level) }
            let f = Double(1 << k)
            let m = LineCropper.cropToImage(quad)
            let sampler = AffineMap(
                a: m.a / f, b: m.b / f, c: m.c / f, d: m.d / f,
                tx: (m.tx + 0.5 * m.a + 0.5 * m.b) / f - 0.5, ty: (m.ty + 0.5 * m.c + 0.5 * m.d) / f - 0.5)
            var expected = GrayImage(width: 0, height: 0)
            level.warp(sampler, width: LineCropper.width(for: quad), height: 32, into: &expected)
            var cropper = LineCropper()
            var out = GrayImage(width: 0, height: 0)
            cropper.crop(image, quad: quad, into: &out)
            XCTAssertEqual(out, expected, "centre \(center), \(degrees) degrees, h \(h) (k = \(k))")
            // A reused cropper gives the same pixels.
            cropper.crop(image, quad: quad, into: &out)
            XCTAssertEqual(out, expected)
        }
        XCTAssertEqual(LineCropper.halvings(scale: 2), 0)
        XCTAssertEqual(LineCropper.halvings(scale: 2.01), 1)
        XCTAssertEqual(LineCropper.halvings(scale: 4), 2)
        XCTAssertEqual(LineCropper.halvings(scale: 7.99), 2)
    }

    /// The README's halving over a whole image: (a + b + c + d + 2) / 4, an odd last row or column dropped.
    static func halveWhole(_ image: GrayImage) -> GrayImage {
        var out = GrayImage(width: image.width / 2, height: image.height / 2)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let sum = Int(image[2 * x, 2 * y]) + Int(image[2 * x + 1, 2 * y]) + Int(image[2 * x, 2 * y + 1])
                    + Int(image[2 * x + 1, 2 * y + 1])
                out[x, y] = UInt8((sum + 2) / 4)
            }
        }
        return out
    }
}
