import VitalSnapImaging
import XCTest
@testable import VitalSnapSamples

final class RasterTests: XCTestCase {
    func testPolygonCoverageSumsToItsArea() {
        var canvas = FloatCanvas(width: 40, height: 30)
        canvas.fill(Shapes.rectangle(x: 3.3, y: 4.5, width: 10.5, height: 7.25), value: 1)
        XCTAssertEqual(Double(canvas.values.reduce(0, +)), 10.5 * 7.25, accuracy: 0.15)
        // Fully covered interior pixel, untouched pixel outside, partial pixel on the left edge.
        XCTAssertEqual(canvas[8, 8], 1, accuracy: 1e-5)
        XCTAssertEqual(canvas[20, 20], 0)
        XCTAssertEqual(canvas[3, 8], 0.7, accuracy: 0.01)
    }

    func testTriangleAreaAndEvenOddHole() {
        var canvas = FloatCanvas(width: 50, height: 50)
        canvas.fill([CanvasPoint(5, 5), CanvasPoint(45, 5), CanvasPoint(5, 45)], value: 1)
        XCTAssertEqual(Double(canvas.values.reduce(0, +)), 800, accuracy: 2)

        var ring = FloatCanvas(width: 50, height: 50)
        ring.fill(contours: Shapes.roundedRectangleStroke(x: 10, y: 10, width: 30, height: 30, radius: 0, strokeWidth: 2), value: 1)
        XCTAssertEqual(ring[25, 25], 0, "the inner contour is a hole")
        XCTAssertEqual(ring[10, 25], 1, accuracy: 1e-5)
        XCTAssertEqual(Double(ring.values.reduce(0, +)), 32 * 32 - 28 * 28, accuracy: 1)
    }

    func testEllipseArea() {
        var canvas = FloatCanvas(width: 60, height: 60)
        canvas.fill(Shapes.ellipse(center: CanvasPoint(30, 30), radiusX: 20, radiusY: 10), value: 1)
        XCTAssertEqual(Double(canvas.values.reduce(0, +)), Double.pi * 200, accuracy: 6)
    }

    func testHomographyMapsTheFourCornersExactly() throws {
        let source = [CanvasPoint(0, 0), CanvasPoint(200, 0), CanvasPoint(200, 120), CanvasPoint(0, 120)]
        let target = [CanvasPoint(31.5, 12), CanvasPoint(190, 40.25), CanvasPoint(170, 150), CanvasPoint(20, 100)]
        let h = try XCTUnwrap(PlaneHomography(from: source, to: target))
        for (s, t) in zip(source, target) {
            let p = h.apply(s)
            XCTAssertEqual(p.x, t.x, accuracy: 1e-9)
            XCTAssertEqual(p.y, t.y, accuracy: 1e-9)
            let back = h.inverse.apply(t)
            XCTAssertEqual(back.x, s.x, accuracy: 1e-7)
            XCTAssertEqual(back.y, s.y, accuracy: 1e-7)
        }
        // A straight line stays straight: the midpoint of an edge maps onto the image edge.
        let mid = h.apply(CanvasPoint(100, 0))
        let cross = (target[1].x - target[0].x) * (mid.y - target[0].y) - (target[1].y - target[0].y) * (mid.x - target[0].x)
        XCTAssertEqual(cross, 0, accuracy: 1e-7)
    }

    func testDegenerateHomographyIsRejected() {
        let line = [CanvasPoint(0, 0), CanvasPoint(1, 1), CanvasPoint(2, 2), CanvasPoint(3, 3)]
        XCTAssertNil(PlaneHomography(from: line, to: line))
    }

    func testIdentityCompositeCopiesTheLayer() {
        var layer = FloatCanvas(width: 8, height: 6)
        for i in layer.values.indices { layer.values[i] = Float(i * 3 % 200) }
        let mask = FloatCanvas(width: 8, height: 6, fill: 1)
        var dst = FloatCanvas(width: 8, height: 6, fill: 17)
        dst.composite(layer, mask: mask, transform: .identity)
        for i in layer.values.indices { XCTAssertEqual(dst.values[i], layer.values[i], accuracy: 1e-3) }
    }

    func testCompositeRespectsTheMask() {
        let layer = FloatCanvas(width: 10, height: 10, fill: 200)
        var mask = FloatCanvas(width: 10, height: 10)
        mask.fill(Shapes.rectangle(x: 0, y: 0, width: 5, height: 10), value: 1)
        var dst = FloatCanvas(width: 10, height: 10, fill: 50)
        dst.composite(layer, mask: mask, transform: .identity)
        XCTAssertEqual(dst[2, 5], 200, accuracy: 1e-3)
        XCTAssertEqual(dst[8, 5], 50, accuracy: 1e-3)
    }

    func testBlurKeepsTheMeanAndSpreads() {
        var canvas = FloatCanvas(width: 21, height: 21)
        canvas[10, 10] = 441
        canvas.gaussianBlur(sigma: 1.5)
        XCTAssertEqual(Double(canvas.values.reduce(0, +)), 441, accuracy: 0.5)
        XCTAssertLessThan(canvas[10, 10], 441 / 10)
        XCTAssertGreaterThan(canvas[12, 10], 0)
        XCTAssertEqual(canvas[9, 10], canvas[11, 10], accuracy: 1e-4)
    }

    func testQuarterTurnsMovePixelsAndPointsAlike() {
        var image = GrayImage(width: 4, height: 3)
        for i in image.pixels.indices { image.pixels[i] = UInt8(i) }
        for turns in 0..<4 {
            let rotated = QuarterTurn.rotate(image, clockwiseTurns: turns)
            XCTAssertEqual(rotated.width, turns % 2 == 0 ? 4 : 3)
            for y in 0..<3 {
                for x in 0..<4 {
                    let p = QuarterTurn.rotate(CanvasPoint(Double(x) + 0.5, Double(y) + 0.5), width: 4, height: 3, clockwiseTurns: turns)
                    XCTAssertEqual(rotated[Int(p.x), Int(p.y)], image[x, y], "turns \(turns) at \(x),\(y)")
                }
            }
        }
        let once = QuarterTurn.rotate(image, clockwiseTurns: 1)
        XCTAssertEqual(once[2, 0], image[0, 0], "clockwise: the top-left corner goes to the top-right")
        XCTAssertEqual(QuarterTurn.rotate(QuarterTurn.rotate(image, clockwiseTurns: 3), clockwiseTurns: 1), image)
    }

    func testGlareSaturatesItsCoreAndFades() {
        var canvas = FloatCanvas(width: 40, height: 40, fill: 30)
        canvas.addGlare(center: CanvasPoint(20, 20), radiusX: 15, radiusY: 10, angle: 0, strength: 1, core: 0.5)
        XCTAssertEqual(canvas[20, 20], 255, accuracy: 0.01)
        XCTAssertEqual(canvas[2, 2], 30)
        XCTAssertGreaterThan(canvas[31, 20], 30)
        XCTAssertLessThan(canvas[31, 20], 255)
    }

    func testGrayImageConversionClampsAndRounds() {
        var canvas = FloatCanvas(width: 3, height: 1)
        canvas.values = [-20, 127.6, 400]
        XCTAssertEqual(canvas.grayImage().pixels, [0, 128, 255])
    }
}
