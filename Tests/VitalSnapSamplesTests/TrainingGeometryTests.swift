import Foundation
import VitalSnapImaging
import VitalSnapOCR
import XCTest
@testable import VitalSnapSamples

/// The pieces of the training-set generator: line geometry, devices per kind, crop jitter, the colour
/// canvas's blur, and the JSON number format.
final class TrainingGeometryTests: XCTestCase {
    func spec(
        _ text: String, font: LineFont, cells: Int = 4, small: Double? = nil, h: Double = 40
    ) -> TextLineSpec {
        TextLineSpec(
            role: .value, field: .value, text: text, font: font, digitHeight: h, cells: cells, pitch: 0.75,
            smallLastDigit: small, showsPoints: true, showsColon: false, color: .black, letterI: .likeOne)
    }

    let segments = LineFont.sevenSegment(SegmentStyle(thickness: 0.14, gap: 0.02, slant: 0.12, ends: .hexagon, widthRatio: 0.55), .hexagon)

    func testLitOutlinesFillTheQuadFromTheFirstShownCell() {
        for font in [segments, LineFont.sevenSegment(SegmentStyle(thickness: 0.1, gap: 0, slant: 0, ends: .rectangle), .rounded),
                     LineFont.stroke(weight: 0.15, widthRatio: 0.55, slant: 0.1), LineFont.dotMatrix(dotFill: 0.85, round: true)] {
            let g = TextLineGeometry(spec("18.5", font: font, cells: 5), x: 100, y: 50)
            let q = g.quad
            let points = g.lit.flatMap { $0 }
            // Everything lit is inside the quad (leaning with slanted characters; rounded ends and points may
            // touch its edges) ...
            let grown = LineQuad(
                topLeft: Point(x: q.topLeft.x - 0.5, y: q.topLeft.y - 0.5), topRight: Point(x: q.topRight.x + 0.5, y: q.topRight.y - 0.5),
                bottomRight: Point(x: q.bottomRight.x + 0.5, y: q.bottomRight.y + 0.5), bottomLeft: Point(x: q.bottomLeft.x - 0.5, y: q.bottomLeft.y + 0.5))
            for p in points { XCTAssert(inside(grown, p), "\(font): \(p) outside \(q)") }
            // ... and reaches its top, bottom and right end.
            let ys = points.map(\.y)
            XCTAssertLessThan(ys.min()!, q.topLeft.y + 3, "\(font)")
            XCTAssertGreaterThan(ys.max()!, q.bottomLeft.y - 3, "\(font)")
            let rightmost = points.map { $0.x - font.slant * (q.bottomLeft.y - $0.y) }.max()!  // unsheared
            XCTAssertGreaterThan(rightmost, q.bottomRight.x - 6, "\(font)")
            // The quad leans with the characters: its top is moved right by slant x height.
            XCTAssertEqual(q.topLeft.x - q.bottomLeft.x, font.slant * 40, accuracy: 1e-9)
            XCTAssertEqual(q.bottomLeft.y - q.topLeft.y, 40, accuracy: 1e-9)
            // One cell per shown character: 1, 8, 5 (a font draws the point in a cell of its own).
            if case .sevenSegment = font { XCTAssertEqual(g.cells.count, 3) } else { XCTAssertEqual(g.cells.count, 4) }
        }
        // Seven segments: two blank leading cells of five, so the quad starts at the third cell.
        let g = TextLineGeometry(spec("18.5", font: segments, cells: 5), x: 100, y: 50)
        XCTAssertEqual(g.quad.bottomLeft.x, 100 + 2 * 0.75 * 40, accuracy: 1e-9)
        XCTAssertEqual(g.quad.topLeft.x, 100 + 2 * 0.75 * 40 + 0.12 * 40, accuracy: 1e-9)
        XCTAssertFalse(g.ghosts.isEmpty, "the blank cells' unlit segments")
    }

    func inside(_ q: LineQuad, _ p: CanvasPoint) -> Bool {
        let c = q.corners
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            if (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0 { return false }
        }
        return true
    }

    func testSmallLastDigitSitsOnTheBaseline() {
        let g = TextLineGeometry(spec("0123.4", font: segments, cells: 5, small: 0.6), x: 0, y: 0)
        let last = g.cells[g.cells.count - 1], first = g.cells[0]
        XCTAssertEqual(last.bottomLeft.y, first.bottomLeft.y, accuracy: 1e-9)
        XCTAssertEqual(last.bottomLeft.y - last.topLeft.y, 24, accuracy: 1e-9)
        XCTAssertEqual(g.quad.bottomLeft.y - g.quad.topLeft.y, 40, accuracy: 1e-9, "the quad keeps the full digit height")
    }

    func testEveryKindOfDeviceShowsValidReadings() {
        let p = TrainingSceneParameters()
        for program in DeviceProgram.allCases {
            for seed in 0..<8 {
                var random = SampleRandom(seed: UInt64(seed))
                let device = DeviceGenerator.random(program, parameters: p, random: &random)
                let values = device.elements.filter { $0.role == .value }
                XCTAssertFalse(values.isEmpty, "\(program) seed \(seed)")
                for element in device.elements where element.role.isReading {
                    XCTAssert(RecognizerAlphabet.contains(element.text), "\(program): '\(element.text)'")
                    XCTAssertFalse(element.cells.isEmpty)
                    // The element lies on the device.
                    let b = element.quad.bounds
                    XCTAssert(b.minX >= 0 && b.minY >= 0 && b.maxX <= device.width && b.maxY <= device.height, "\(program) \(element.text)")
                }
                let fields = Set(values.compactMap(\.field))
                switch program {
                case .bloodPressure:
                    XCTAssert(fields.contains(.systolic))
                    if values.count == 3 { XCTAssertEqual(fields, [.systolic, .diastolic, .pulse]) }
                case .oximeter: XCTAssert(fields.contains(.spo2))
                case .glucose: XCTAssertEqual(fields, [.bloodGlucose])
                case .thermometer: XCTAssertEqual(fields, [.temperature])
                case .scale: XCTAssertEqual(fields, [.weight])
                case .electricityMeter:
                    // Counters keep their leading zeros: as many digits as cells.
                    let digits = values[0].text.filter(\.isNumber).count
                    XCTAssertGreaterThanOrEqual(digits, 5, values[0].text)
                default: XCTAssertEqual(fields, [.value])
                }
            }
        }
    }

    func testJitterStaysInItsRangesAndStopsShortOfTheNextLine() {
        let p = TrainingSceneParameters()
        let h = 20.0
        let line = LineQuad(center: Point(x: 100, y: 100), angle: 0.3, length: 60, digitHeight: h)
        // Another line in the same band, half a digit height beyond the right end.
        let e = line.direction
        let next = LineQuad(
            center: Point(x: 100 + e.x * (30 + 0.5 * h + 20), y: 100 + e.y * (30 + 0.5 * h + 20)), angle: 0.3, length: 40, digitHeight: h)
        var random = SampleRandom(seed: 1)
        var extendedLeft = false
        for _ in 0..<400 {
            let j = LineCropPlanner.jittered(line, others: [next], p: p, random: &random)
            XCTAssert((0.85 * h - 1e-9...1.2 * h + 1e-9).contains(j.digitHeight))
            XCTAssertLessThanOrEqual(abs(j.angle - line.angle), 3 * Double.pi / 180 + 1e-9)
            // Along the line: the right end never passes the clearance before the next line.
            let rightEnd = (j.topRight.x + j.bottomRight.x) / 2 - line.center.x, rightEndY = (j.topRight.y + j.bottomRight.y) / 2 - line.center.y
            let along = rightEnd * e.x + rightEndY * e.y
            XCTAssertLessThanOrEqual(along, 30 + 0.5 * h - p.cropClearance * h + 0.01 * h + 0.06 * h, "reaches the next line")
            let leftEnd = (j.topLeft.x + j.bottomLeft.x) / 2 - line.center.x, leftEndY = (j.topLeft.y + j.bottomLeft.y) / 2 - line.center.y
            let back = -(leftEnd * e.x + leftEndY * e.y)
            XCTAssertLessThanOrEqual(back, 30 + 0.6 * h + 0.1 * h + 0.05 * h)
            XCTAssertGreaterThanOrEqual(back, 30 - 0.1 * h - 0.1 * h - 0.05 * h)
            if back > 30 + 0.3 * h { extendedLeft = true }
        }
        XCTAssertTrue(extendedLeft, "the free end is extended sometimes")
    }

    func testPlaneBlurMatchesTheGreyBlur() {
        var random = SampleRandom(seed: 4)
        var grey = FloatCanvas(width: 37, height: 23)
        for i in grey.values.indices { grey.values[i] = Float(random.uniform(0...255)) }
        for sigma in [0.4, 1.1, 2.6] {
            var reference = grey
            reference.gaussianBlur(sigma: sigma)
            var canvas = ColorCanvas(width: 37, height: 23, fill: .black)
            canvas.red = grey
            canvas.green = grey
            canvas.blue = grey
            canvas.gaussianBlur(sigma: sigma)
            for i in grey.values.indices {
                XCTAssertEqual(canvas.red.values[i], reference.values[i], accuracy: 1e-3, "sigma \(sigma), pixel \(i)")
                XCTAssertEqual(canvas.blue.values[i], reference.values[i], accuracy: 1e-3)
            }
        }
    }

    func testJSONNumbersAndStrings() {
        XCTAssertEqual(SceneAnnotationJSON.number(12.345, decimals: 2), "12.35")
        XCTAssertEqual(SceneAnnotationJSON.number(-0.001, decimals: 2), "0")
        XCTAssertEqual(SceneAnnotationJSON.number(-3.1, decimals: 2), "-3.1")
        XCTAssertEqual(SceneAnnotationJSON.number(7, decimals: 3), "7")
        XCTAssertEqual(SceneAnnotationJSON.number(0.05, decimals: 2), "0.05")
        XCTAssertEqual(SceneAnnotationJSON.string("a\"b\\c\t°"), "\"a\\\"b\\\\c\\t°\"")
    }

    func testSceneSeedsDependOnSeedAndIndexOnly() {
        XCTAssertEqual(TrainingSeeds.scene(5, index: 7), TrainingSeeds.scene(5, index: 7))
        let seeds = Set((0..<1000).map { TrainingSeeds.scene(5, index: $0) })
        XCTAssertEqual(seeds.count, 1000)
        XCTAssertNotEqual(TrainingSeeds.scene(5, index: 0), TrainingSeeds.scene(6, index: 0))
    }
}
