import Foundation
import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

/// `RuleLineRectifier` on hand-made detections: a frame with a known number, and a `TextLine` built from the
/// digits' true boxes, as the line finder would give it.
///
/// The segments are drawn half a pixel apart: with clean one-pixel gaps the recognizer splits some digits into
/// their stroke columns (see the report), and these tests are about the geometry of the rectified line.
final class RuleLineRectifierTests: XCTestCase {
    /// Digits 36 px tall (cells 20.25 wide at a 27 px pitch, strokes 4.5 px).
    let font: SegmentText = {
        var font = SegmentText().scaled(36.0 / 32)
        font.gap = 0.5
        return font
    }()

    struct Scene {
        var frame: GrayImage
        var line: TextLine
        var pyramid: ImagePyramid
        var digitBoxes: [PixelRect]
    }

    func scene(
        _ text: String, angleDegrees: Double = 0, slant: Double = 0, background: UInt8 = 190, ink: UInt8 = 40,
        polarity: InkPolarity = .dark
    ) -> Scene {
        var font = self.font
        font.slant = slant
        let placement = Placement(x: 60, y: 40, angle: angleDegrees * .pi / 180)
        let frame = Frames.render(text, as: font, width: 200, height: 120, placement: placement, background: background, ink: ink)
        let boxes = font.characterBoxes(text).map { Frames.frameBox(x0: $0.x0, y0: $0.y0, x1: $0.x1, y1: $0.y1, placement: placement) }
        let candidates = boxes.map { CharacterCandidate(box: $0, fill: 0.5, polarity: polarity, level: 0) }
        var pyramid = ImagePyramid()
        pyramid.update(from: frame, maximumLevels: 4)
        return Scene(frame: frame, line: LineFinder.line(from: candidates), pyramid: pyramid, digitBoxes: boxes)
    }

    func rectify(_ scene: Scene) -> RectifiedLine {
        var rectifier = RuleLineRectifier()
        var out = RectifiedLine()
        rectifier.rectify(scene.line, pyramid: scene.pyramid, into: &out)
        return out
    }

    func read(_ line: RectifiedLine) -> String {
        var recognizer = RuleCharacterRecognizer()
        return String(recognizer.recognize(line).characters.map(\.character))
    }

    func testUprightLineIsResampledToTheFixedDigitHeight() {
        let s = scene("380")
        let out = rectify(s)
        XCTAssertEqual(out.digitHeight, 32)
        XCTAssertEqual(out.digitTop, 10)
        XCTAssertEqual(out.image.height, 52)
        XCTAssertEqual(out.shear, 0)
        // The band is refined on the pixels: the digits are 36 frame pixels tall.
        XCTAssertEqual(out.frameDigitHeight, 36, accuracy: 2)
        // Wide enough for the number and one and a half digit heights on each side.
        let numberWidth = 2 * font.pitch + font.width
        XCTAssertEqual(Double(out.image.width), (numberWidth + 3 * 36) * 32 / 36, accuracy: 6)
        XCTAssertEqual(out.candidateSpans.count, 3)
        XCTAssertEqual(read(out), "380")
    }

    func testTheDigitBandMapsBackOntoTheDigitsInTheFrame() {
        let s = scene("380", angleDegrees: 5)
        let out = rectify(s)
        // The middle of the band, at the middle of the image, lands in the middle of the number.
        let centre = out.toFrame.apply(Double(out.image.width) / 2, Double(out.digitTop) + Double(out.digitHeight) / 2)
        let number = s.digitBoxes.dropFirst().reduce(s.digitBoxes[0]) { $0.union($1) }
        XCTAssertEqual(centre.x, number.midX, accuracy: 3)
        XCTAssertEqual(centre.y, number.midY, accuracy: 3)
        // One step along the band is one step along the line: the map is a rotation by 5 degrees, scaled.
        let angle = atan2(out.toFrame.c, out.toFrame.a)
        XCTAssertEqual(angle * 180 / .pi, 5, accuracy: 1.5)
        XCTAssertEqual(out.frameDigitHeight, 36, accuracy: 2)
        // Dark ink in the band where the digits are: the rectified image is upright and level.
        XCTAssertEqual(read(out), "380")
    }

    func testItalicDigitsAreShearedUpright() {
        let s = scene("380", angleDegrees: 5, slant: 0.15)
        let out = rectify(s)
        XCTAssertEqual(out.shear, 0.15, accuracy: 0.05)
        XCTAssertEqual(read(out), "380")
        // Upright digits need none.
        XCTAssertEqual(rectify(scene("380", angleDegrees: 5)).shear, 0, accuracy: 0.025)
    }

    func testLightDigitsOnADarkBackgroundComeOutDarkOnLight() {
        let s = scene("380", angleDegrees: 5, slant: 0.15, background: 30, ink: 220, polarity: .light)
        let out = rectify(s)
        // Inverted: the margins above and below the digits are light.
        let margin = Histogram(out.image, in: PixelRect(x: 0, y: 0, width: out.image.width, height: 6))
        XCTAssertGreaterThan(margin.percentile(0.5), 200)
        let band = Histogram(out.image, in: PixelRect(x: 0, y: out.digitTop, width: out.image.width, height: out.digitHeight))
        XCTAssertLessThan(band.percentile(0.05), 60)
        XCTAssertEqual(read(out), "380")
    }

    func testCandidateSpansFollowTheCandidatesAlongTheLine() {
        let s = scene("380", angleDegrees: 5, slant: 0.15)
        let out = rectify(s)
        XCTAssertEqual(out.candidateSpans.count, 3)
        let lows = out.candidateSpans.map(\.lowerBound)
        XCTAssertEqual(lows, lows.sorted())
        // About a pitch apart (27 frame px, 24 rectified px), inside the image.
        for (a, b) in zip(out.candidateSpans, out.candidateSpans.dropFirst()) {
            XCTAssertEqual(Double(b.lowerBound - a.lowerBound), 24, accuracy: 4)
        }
        XCTAssertTrue(out.candidateSpans.allSatisfy { $0.upperBound < out.image.width })
        // A line from a row profile has no character candidates: no spans.
        var profileLine = s.line
        profileLine.candidatesAreCharacters = false
        var rectifier = RuleLineRectifier()
        var fromProfile = RectifiedLine()
        rectifier.rectify(profileLine, pyramid: s.pyramid, into: &fromProfile)
        XCTAssertTrue(fromProfile.candidateSpans.isEmpty)
    }

    /// (The estimated shear is not checked here: for 456 it comes out at 0.05 instead of 0.15, see the report.)
    func testNumbersReadAfterRectificationInEveryPose() {
        let poses: [(angle: Double, slant: Double)] = [(0, 0), (5, 0), (-5, 0), (5, 0.15), (-5, 0.15), (0, 0.15)]
        for number in ["123", "907", "456", "12.5"] {
            for pose in poses {
                let dark = rectify(scene(number, angleDegrees: pose.angle, slant: pose.slant))
                XCTAssertEqual(read(dark), number, "\(number) at \(pose), dark on light")
                let light = rectify(scene(number, angleDegrees: pose.angle, slant: pose.slant, background: 30, ink: 220, polarity: .light))
                XCTAssertEqual(read(light), number, "\(number) at \(pose), light on dark")
            }
        }
    }

    /// Refinement may move the band off some of the detected candidates (a fuzzed frame with a long hatched
    /// diagonal did: the span's lower end passed its upper end and the range trapped, ending the batch).
    func testCandidatesBeyondTheBandGiveNoSpanAndTheOthersStayInside() {
        var s = scene("380")
        let box = s.line.boundingBox
        for dx in [box.width + 600, -(box.width + 600)] {
            s.line.candidates.append(CharacterCandidate(
                box: PixelRect(x: box.minX + dx, y: box.minY, width: 20, height: box.height), fill: 0.5, polarity: .dark, level: 0))
        }
        let out = rectify(s)
        XCTAssertEqual(out.candidateSpans.count, 3)
        for span in out.candidateSpans {
            XCTAssertTrue(span.lowerBound >= 0 && span.upperBound < out.image.width, "\(span) in \(out.image.width)")
        }
        XCTAssertEqual(read(out), "380")
    }

    func testOnlyTheConfiguredSlantsAreTried() {
        let s = scene("380", angleDegrees: 5, slant: 0.15)
        XCTAssertEqual(rectify(s).shear, 0.15, accuracy: 0.05)
        // Slants from 0 through 0.05 only: the closest to 0.15 is the last.
        var configuration = RuleLineRectifier.Configuration()
        configuration.minimumShear = 0
        configuration.maximumShear = 0.05
        XCTAssertEqual(Array(configuration.shears), [0, 0.025, 0.05])
        var rectifier = RuleLineRectifier(configuration: configuration)
        var out = RectifiedLine()
        rectifier.rectify(s.line, pyramid: s.pyramid, into: &out)
        XCTAssertEqual(out.shear, 0.05)
    }

    func testTheOutputHasTheConfiguredDigitHeightAndMargin() {
        var configuration = RuleLineRectifier.Configuration()
        configuration.digitHeight = 40
        configuration.margin = 6
        var rectifier = RuleLineRectifier(configuration: configuration)
        var out = RectifiedLine()
        rectifier.rectify(scene("380").line, pyramid: scene("380").pyramid, into: &out)
        XCTAssertEqual(out.digitHeight, 40)
        XCTAssertEqual(out.digitTop, 6)
        XCTAssertEqual(out.image.height, 52)
    }
}
