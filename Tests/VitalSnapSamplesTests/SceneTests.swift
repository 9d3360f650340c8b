import VitalSnapImaging
import VitalSnapOCR
import XCTest
@testable import VitalSnapSamples

final class SceneTests: XCTestCase {
    static let catalog = try! PeripheralCatalog.builtIn()
    static let designs = MeterDesign.all(in: catalog)

    func testSameSeedGivesIdenticalBytesAndAnotherSeedDoesNot() throws {
        let design = Self.designs[0]
        let a = SceneGenerator.randomStill(design, seed: 77, width: 160, height: 120)
        let b = SceneGenerator.randomStill(design, seed: 77, width: 160, height: 120)
        let c = SceneGenerator.randomStill(design, seed: 78, width: 160, height: 120)
        XCTAssertEqual(a.image, b.image)
        XCTAssertEqual(try ImageEncoder.png(a.image), try ImageEncoder.png(b.image))
        XCTAssertEqual(try ImageEncoder.jpeg(a.image, quality: 85), try ImageEncoder.jpeg(b.image, quality: 85))
        XCTAssertEqual(a.reading, b.reading)
        XCTAssertNotEqual(a.image, c.image)
    }

    func testDisplayQuadLiesInsideTheImageAndOverTheDisplay() {
        for (i, design) in Self.designs.enumerated() {
            let scene = SceneGenerator.randomStill(design, seed: UInt64(300 + i), width: 160, height: 120)
            for p in scene.displayQuad.points {
                XCTAssert(p.x >= 0 && p.y >= 0 && p.x <= Double(scene.image.width) && p.y <= Double(scene.image.height),
                          "\(design.folderName): \(scene.displayQuad) outside \(scene.image.width)x\(scene.image.height)")
            }
            let b = scene.displayQuad.bounds
            XCTAssertGreaterThan(b.maxX - b.minX, 10, "display is not degenerate")
        }
    }

    /// A flat, centred, untilted view: the display window's centre shows the display background (light for
    /// an LCD), and the quad is where the pose puts it.
    func testUntiltedSceneShowsTheDisplayWhereTheQuadSays() throws {
        let design = Self.designs[0]
        var random = SampleRandom(seed: 1)
        let content = ReadingGenerator.random(for: design.definition, random: &random)
        let p = SceneParameters(
            width: 200, height: 150, displayWidthFraction: 0.5, background: .wall, backgroundShade: 60,
            shadow: 0, blurSigma: 0, noiseSigma: 0)
        let scene = SceneGenerator.render(design, content: content, parameters: p)
        let q = scene.displayQuad
        XCTAssertEqual(q.topRight.x - q.topLeft.x, 100, accuracy: 0.5)
        XCTAssertEqual(q.centroid.x, 100, accuracy: 0.5)
        XCTAssertEqual(q.centroid.y, 75, accuracy: 0.5)
        XCTAssertEqual(q.topLeft.y, q.topRight.y, accuracy: 1e-6)
        // Just inside the window's top-right corner: display background, not bezel or ink.
        let inside = scene.image[Int(q.topRight.x) - 4, Int(q.topRight.y) + 20]
        XCTAssertGreaterThan(Int(inside), 140)
        // Just outside the window: the dark bezel.
        XCTAssertLessThan(Int(scene.image[Int(q.topRight.x) + 2, Int(q.centroid.y)]), 110)
    }

    func testQuarterTurnRotatesImageAndQuad() throws {
        let design = Self.designs[2]
        var random = SampleRandom(seed: 2)
        let content = ReadingGenerator.random(for: design.definition, random: &random)
        var p = SceneParameters(width: 120, height: 90, displayWidthFraction: 0.4, tiltDegrees: 5, noiseSigma: 1)
        let upright = SceneGenerator.render(design, content: content, parameters: p)
        p.quarterTurns = 1
        let turned = SceneGenerator.render(design, content: content, parameters: p)
        XCTAssertEqual(turned.image, QuarterTurn.rotate(upright.image, clockwiseTurns: 1))
        XCTAssertEqual(turned.image.width, 90)
        let expected = upright.displayQuad.map { QuarterTurn.rotate($0, width: 120, height: 90, clockwiseTurns: 1) }
        XCTAssertEqual(turned.displayQuad.topLeft.x, expected.topLeft.x, accuracy: 1e-9)
        XCTAssertEqual(turned.displayQuad.topLeft.y, expected.topLeft.y, accuracy: 1e-9)
        XCTAssert(turned.notes.contains("rotation=90"))
    }

    func testGlareOverDigitsHidesADigitAndExpectsNoReading() throws {
        let design = Self.designs[0]
        var random = SampleRandom(seed: 3)
        let content = ReadingGenerator.content(for: design.definition, scaledValues: [.bloodGlucose: 188], random: &random)
        var p = SceneParameters(width: 200, height: 150, displayWidthFraction: 0.55, shadow: 0, blurSigma: 0, noiseSigma: 0)
        p.glare = .overDigits
        p.glareSize = 1
        p.glareStrength = 1
        p.glareSpot = 0.5  // the middle digit of three
        let glared = SceneGenerator.render(design, content: content, parameters: p)
        XCTAssertEqual(glared.expectedReading, "?")
        XCTAssertEqual(glared.reading, "188")
        XCTAssert(glared.notes.contains("glare-over-digits=yes"))
        // The middle digit's cell is white where an 8 has ink everywhere: no dark pixel left in its core.
        let q = glared.displayQuad
        let cx = q.topLeft.x + 0.06 * 110 + 0.72 * 110 / 2  // field box centre (box x 0.06, width 0.72)
        let cy = q.topLeft.y + (0.06 + 0.31) * (q.bottomLeft.y - q.topLeft.y)
        var darkest = 255
        for y in Int(cy) - 5...Int(cy) + 5 { for x in Int(cx) - 4...Int(cx) + 4 { darkest = min(darkest, Int(glared.image[x, y])) } }
        XCTAssertGreaterThan(darkest, 240)

        p.glare = .besideDigits
        p.glareSize = 0.15
        let beside = SceneGenerator.render(design, content: content, parameters: p)
        XCTAssertEqual(beside.expectedReading, "188")
        XCTAssert(beside.notes.contains("glare-over-digits=no"))
    }

    func testRandomStillsAreLegibleByConstruction() {
        var random = SampleRandom(seed: 4)
        for design in Self.designs {
            for _ in 0..<50 {
                let p = SceneParameters.randomStill(for: design, width: 640, height: 480, random: &random)
                let thickness = SceneParameters.mainSegmentThickness(design, displayWidthPixels: p.displayWidthFraction * 640)
                XCTAssertLessThanOrEqual(p.blurSigma, thickness * 0.34)
                XCTAssertNotEqual(p.glare, .overDigits)
                XCTAssert((-8...8).contains(p.tiltDegrees))
                XCTAssert((0.2...0.9).contains(p.displayWidthFraction))
                XCTAssert(design.ghostRange.contains(p.ghostLevel))
            }
        }
    }

    func testEveryDesignRendersItsWordsAndValues() {
        for design in Self.designs {
            let scene = SceneGenerator.randomStill(design, seed: 5, width: 96, height: 72)
            XCTAssertEqual(scene.image.width * scene.image.height, 96 * 72)
            XCTAssertEqual(scene.expectedReading, scene.reading)
        }
        for design in Self.designs where design.definition.type == .glucoseMeter {
            let scene = SceneGenerator.randomStill(design, seed: 6, width: 96, height: 72, word: .err)
            XCTAssertEqual(scene.reading, "Err")
        }
    }
}
