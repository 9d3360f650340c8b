import Foundation
import VitalSnapImaging
import VitalSnapOCR
import XCTest
@testable import VitalSnapSamples

/// Training scenes: determinism, where the annotated quads are, their orientation after quarter turns, the
/// roles and texts, and glare marking lines unreadable. Small images throughout (debug builds are slow).
final class TrainingSceneTests: XCTestCase {
    /// Standard parameters at test size.
    static var small: TrainingSceneParameters {
        var p = TrainingSceneParameters()
        p.photoLongSide = [.init(120...220, 1)]
        p.displayCropWidth = 100...160
        p.fieldCropWidth = 90...140
        p.lineCropDigitHeight = 12...24
        return p
    }

    func testTheSameSeedAndIndexGiveTheSameSceneAndOthersDoNot() {
        let p = Self.small
        let a = TrainingSceneRenderer.render(seed: 11, index: 3, parameters: p)
        let b = TrainingSceneRenderer.render(seed: 11, index: 3, parameters: p)
        XCTAssertEqual(a.rgb, b.rgb)
        XCTAssertEqual(SceneAnnotationJSON.line(for: a, file: "x.jpg"), SceneAnnotationJSON.line(for: b, file: "x.jpg"))
        let c = TrainingSceneRenderer.render(seed: 11, index: 4, parameters: p)
        let d = TrainingSceneRenderer.render(seed: 12, index: 3, parameters: p)
        XCTAssertNotEqual(a.rgb, c.rgb)
        XCTAssertNotEqual(a.rgb, d.rgb)
    }

    func testScenesHaveTheirSizeAndEveryQuadMeetsTheImage() {
        let p = Self.small
        var framings = Set<String>()
        for i in 0..<40 {
            let scene = TrainingSceneRenderer.render(seed: 5, index: i, parameters: p)
            XCTAssertEqual(scene.rgb.count, scene.width * scene.height * 3)
            if case .text(let f)? = scene.style.first(where: { $0.key == "framing" })?.value { framings.insert(f) }
            let w = Double(scene.width), h = Double(scene.height)
            for line in scene.lines {
                let xs = line.quad.corners.map(\.x), ys = line.quad.corners.map(\.y)
                XCTAssert(xs.max()! > 0 && ys.max()! > 0 && xs.min()! < w && ys.min()! < h, "scene \(i): \(line.text) at \(xs), \(ys) misses \(scene.width)x\(scene.height)")
                if line.readable {
                    for c in line.quad.corners {
                        XCTAssert(c.x >= -1e-6 && c.y >= -1e-6 && c.x <= w + 1e-6 && c.y <= h + 1e-6, "scene \(i): readable \(line.text) runs out of the image")
                    }
                }
                XCTAssertEqual(line.digitHeight, line.quad.digitHeight, accuracy: 1e-9)
                XCTAssertGreaterThan(line.digitHeight, 0)
            }
        }
        XCTAssertGreaterThanOrEqual(framings.count, 4, "framings drawn: \(framings)")
    }

    func testRolesAndTextsFollowTheConventions() {
        let p = Self.small
        var roles = Set<SceneTextRole>()
        for i in 0..<60 {
            for line in TrainingSceneRenderer.render(seed: 21, index: i, parameters: p).lines {
                roles.insert(line.role)
                switch line.role {
                case .value, .clock, .date, .memory:
                    XCTAssertFalse(line.text.isEmpty)
                    XCTAssert(RecognizerAlphabet.contains(line.text), "'\(line.text)' is outside the alphabet")
                case .unit: XCTAssertFalse(line.text.isEmpty)
                case .icon: XCTAssertEqual(line.text, "")
                }
                XCTAssertEqual(line.field != nil, line.role == .value, "\(line.role) \(line.text) field \(line.field ?? "nil")")
                if line.role == .clock { XCTAssert(line.text.contains(":"), line.text) }
            }
        }
        XCTAssertEqual(roles, Set(SceneTextRole.allCases), "every role occurs in 60 scenes")
    }

    /// `wordChance` decides how often a medical value line shows a word (`LO`, `Err`, `---`) instead of digits;
    /// the counters (fuel pumps, meters) never do, so even at 1 not every value line is a word.
    func testWordChanceDecidesHowOftenAValueIsAWord() {
        func valueLines(wordChance: Double) -> (words: Int, all: Int) {
            var p = Self.small
            p.wordChance = wordChance
            var words = 0, all = 0
            for i in 0..<60 {
                let scene = TrainingSceneRenderer.render(seed: 8, index: i, parameters: p)
                for line in scene.lines where line.role == .value {
                    all += 1
                    if ReadingTexts.words.contains(line.text) { words += 1 }
                }
            }
            return (words, all)
        }
        let none = valueLines(wordChance: 0), always = valueLines(wordChance: 1)
        XCTAssertGreaterThan(none.all, 20)
        XCTAssertEqual(none.words, 0)
        XCTAssertGreaterThan(always.words, 5, "of \(always.all) value lines")
        XCTAssertLessThan(always.words, always.all, "counters show no words")
    }

    /// Upright, square-on photos turned by k quarter turns: the reading direction of every line turns with
    /// them (clockwise: right, down, left, up) and the quad's first corner stays the text's top-left.
    func testQuadsTurnWithTheQuarterTurns() {
        var p = Self.small
        p.framingWeights = [.init(.closeUp, 1)]
        p.tilt = 0...0
        p.wideTiltChance = 0
        p.perspective = 0...0
        p.quarterTurnChance = 1
        p.cutOffChance = 0
        let expected: [Int: (Double, Double)] = [1: (0, 1), 2: (-1, 0), 3: (0, -1)]
        var seen = Set<Int>()
        for i in 0..<16 {
            let scene = TrainingSceneRenderer.render(seed: 3, index: i, parameters: p)
            guard let e = expected[scene.quarterTurns] else { return XCTFail("quarter turns \(scene.quarterTurns)") }
            seen.insert(scene.quarterTurns)
            for line in scene.lines where line.role.isReading {
                let d = line.quad.direction
                XCTAssertGreaterThan(d.x * e.0 + d.y * e.1, 0.99, "turns \(scene.quarterTurns): direction \(d) of \(line.text)")
                // `down` points from the top of the characters to their bottom: for a 90-degree turn, leftwards.
                let down = line.quad.down
                XCTAssertGreaterThan(down.x * -e.1 + down.y * e.0, 0.99)
            }
        }
        XCTAssertEqual(seen, [1, 2, 3])
    }

    /// Close-ups without ghosts, glare, shadows or reflections: the display's ink lies inside the annotated
    /// quads (grown by a pixel or two), and every readable value quad holds ink.
    func testQuadsSitOnTheCharacters() throws {
        var p = Self.small
        p.photoLongSide = [.init(300...360, 1)]
        p.framingWeights = [.init(.closeUp, 1)]
        p.programWeights = [.init(.glucose, 1), .init(.thermometer, 1), .init(.electricityMeter, 1), .init(.oximeter, 1)]
        p.invisibleGhostChance = 1
        p.legendPlateChance = 0
        p.fadedInkChance = 0
        p.fieldEdgeShade = 1...1
        p.exposure = 1...1
        p.whiteBalance = 0...0
        p.segmentShadowChance = 0
        p.glassReflectionChance = 0
        p.glareBesideChance = 0
        p.glareOverDigitChance = 0
        p.glareBodyChance = 0
        p.noise = 0...0
        p.blur = 0...0
        p.cutOffChance = 0
        p.quarterTurnChance = 0
        p.lightStrength = 0...0
        p.vignette = 0...0
        var checked = 0
        for i in 0..<10 {
            let scene = TrainingSceneRenderer.render(seed: 8, index: i, parameters: p)
            guard let display = scene.display, case .color(let field)? = scene.style.first(where: { $0.key == "display_color" })?.value
            else { continue }
            let grey = luma(scene)
            let window = LineQuad(topLeft: display[0], topRight: display[1], bottomRight: display[2], bottomLeft: display[3])
            let fieldLuma = 0.299 * Double(field[0]) + 0.587 * Double(field[1]) + 0.114 * Double(field[2])
            let quads = scene.lines.map { grown($0.quad, by: 2) }
            var ink = 0, inkInQuads = 0
            for y in 0..<scene.height {
                for x in 0..<scene.width {
                    let c = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    guard contains(grown(window, by: -4), c), abs(Double(grey[x, y]) - fieldLuma) > 60 else { continue }
                    ink += 1
                    if quads.contains(where: { contains($0, c) }) { inkInQuads += 1 }
                }
            }
            guard ink > 20 else { continue }
            if ProcessInfo.processInfo.environment["TRAINING_DEBUG"] != nil {
                try Data(ImageEncoder.jpeg(rgb: scene.rgb, width: scene.width, height: scene.height, quality: 95)).write(to: URL(fileURLWithPath: "/tmp/gen/dbg-\(i).jpg"))
                try Data((SceneAnnotationJSON.line(for: scene, file: "scenes/dbg-\(i).jpg") + "\n").utf8).write(to: URL(fileURLWithPath: "/tmp/gen/dbg-\(i).json"))
            }
            XCTAssertGreaterThan(Double(inkInQuads) / Double(ink), 0.97, "scene \(i): \(ink - inkInQuads) of \(ink) ink pixels outside the quads")
            for line in scene.lines where line.role == .value && line.readable {
                var inside = 0, inkInside = 0
                for y in 0..<scene.height {
                    for x in 0..<scene.width where contains(line.quad, Point(x: Double(x) + 0.5, y: Double(y) + 0.5)) {
                        inside += 1
                        if abs(Double(grey[x, y]) - fieldLuma) > 60 { inkInside += 1 }
                    }
                }
                XCTAssertGreaterThan(Double(inkInside), 0.05 * Double(inside), "scene \(i): value \(line.text) quad holds little ink")
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 5)
    }

    func testGlareOverADigitMakesItsLineUnreadable() {
        var p = Self.small
        p.framingWeights = [.init(.closeUp, 1)]
        p.glareOverDigitChance = 1
        p.cropGlareFactor = 1
        p.cutOffChance = 0
        var covered = 0
        for i in 0..<12 {
            let scene = TrainingSceneRenderer.render(seed: 4, index: i, parameters: p)
            guard case .text("over-digit")? = scene.style.first(where: { $0.key == "glare" })?.value else { continue }
            covered += 1
            XCTAssert(scene.lines.contains { $0.role.isReading && !$0.readable }, "scene \(i): glare over a digit, every line readable")
        }
        XCTAssertGreaterThanOrEqual(covered, 8)
    }

    func testGlareHidesACellItReachesAndNotOneFarAway() {
        let glare = TrainingGlare(
            center: CanvasPoint(50, 50), radiusX: 20, radiusY: 10, angle: 0, strength: 1, core: 0.5, hideLevel: 0.45)
        // A cell straddling the centre, one just inside the reach along x, one beyond it.
        XCTAssertTrue(glare.hides(QuadCorners(x: 45, y: 40, width: 10, height: 20)))
        XCTAssertTrue(glare.hides(QuadCorners(x: 63, y: 45, width: 10, height: 10)))  // nearest point 13 px: d = 0.65
        XCTAssertFalse(glare.hides(QuadCorners(x: 69, y: 45, width: 10, height: 10)))  // d = 0.95: barely tinted
        XCTAssertTrue(glare.reaches(QuadCorners(x: 69, y: 45, width: 10, height: 10), level: 0))
        XCTAssertFalse(glare.reaches(QuadCorners(x: 71, y: 45, width: 10, height: 10), level: 0))
        // Weak glare never hides anything.
        var weak = glare
        weak.strength = 0.3
        XCTAssertFalse(weak.hides(QuadCorners(x: 45, y: 40, width: 10, height: 20)))
    }

    func testSceneWithoutADisplayHasNoLines() {
        var p = Self.small
        p.framingWeights = [.init(.noDisplay, 1)]
        let scene = TrainingSceneRenderer.render(seed: 1, index: 0, parameters: p)
        XCTAssertTrue(scene.lines.isEmpty)
        XCTAssertNil(scene.display)
        XCTAssert(SceneAnnotationJSON.line(for: scene, file: "f.jpg").contains("\"display\": null"))
    }

    // MARK: Helpers

    func luma(_ scene: TrainingScene) -> GrayImage {
        var out = GrayImage(width: scene.width, height: scene.height)
        for i in 0..<(scene.width * scene.height) {
            let v = 0.299 * Double(scene.rgb[3 * i]) + 0.587 * Double(scene.rgb[3 * i + 1]) + 0.114 * Double(scene.rgb[3 * i + 2])
            out.pixels[i] = UInt8(min(255, v.rounded()))
        }
        return out
    }

    func grown(_ q: LineQuad, by d: Double) -> LineQuad {
        let c = q.center
        func move(_ p: Point) -> Point {
            let dx = p.x - c.x, dy = p.y - c.y
            let n = max(1e-9, (dx * dx + dy * dy).squareRoot())
            return Point(x: p.x + dx / n * d * 1.42, y: p.y + dy / n * d * 1.42)
        }
        return q.map(move)
    }

    /// Point in a convex quad (either winding).
    func contains(_ q: LineQuad, _ p: Point) -> Bool {
        let c = q.corners
        var sign = 0.0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross > 0 ? 1 : -1 } else if (cross > 0 ? 1 : -1) != sign { return false }
        }
        return true
    }
}
