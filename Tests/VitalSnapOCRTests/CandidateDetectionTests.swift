import Foundation
import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

/// Detection: `CharacterCandidateFinder` on one pyramid level and `LineFinder` chaining candidates into lines.
final class CandidateDetectionTests: XCTestCase {
    let font = SegmentText().scaled(36.0 / 32)

    func frame(_ text: String, angleDegrees: Double = 0, background: UInt8 = 190, ink: UInt8 = 40) -> (image: GrayImage, boxes: [PixelRect]) {
        let placement = Placement(x: 60, y: 40, angle: angleDegrees * .pi / 180)
        let image = Frames.render(text, as: font, width: 200, height: 120, placement: placement, background: background, ink: ink)
        return (image, font.characterBoxes(text).map { Frames.frameBox(x0: $0.x0, y0: $0.y0, x1: $0.x1, y1: $0.y1, placement: placement) })
    }

    func candidates(in image: GrayImage, level: Int = 0, scale: Int = 1) -> [CharacterCandidate] {
        var finder = CharacterCandidateFinder()
        var out: [CharacterCandidate] = []
        finder.find(in: image, level: level, scale: scale, into: &out)
        return out
    }

    func isClose(_ a: PixelRect, _ b: PixelRect, within d: Int) -> Bool {
        abs(a.minX - b.minX) <= d && abs(a.maxX - b.maxX) <= d && abs(a.minY - b.minY) <= d && abs(a.maxY - b.maxY) <= d
    }

    /// A candidate for the digit in `box`: as tall, and covering most of its width. (A digit's right-hand
    /// strokes can stay a candidate of their own when the segments are drawn apart: the segment grouper keeps
    /// pieces side by side at the same height apart.)
    func isCandidate(_ c: PixelRect, for box: PixelRect) -> Bool {
        abs(c.minY - box.minY) <= 2 && abs(c.maxY - box.maxY) <= 2
            && Double(c.intersection(box).width) >= 0.7 * Double(box.width) && c.minX >= box.minX - 2 && c.maxX <= box.maxX + 2
    }

    func candidate(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ polarity: InkPolarity = .dark, level: Int = 0) -> CharacterCandidate {
        CharacterCandidate(box: PixelRect(x: x, y: y, width: w, height: h), fill: 0.5, polarity: polarity, level: level)
    }

    // MARK: - Candidates

    func testEachDigitIsADarkCandidateWithItsOwnBox() {
        let (image, boxes) = frame("380")
        let found = candidates(in: image)
        for (i, box) in boxes.enumerated() {
            XCTAssertTrue(
                found.contains { $0.polarity == .dark && $0.level == 0 && isCandidate($0.box, for: box) },
                "digit \(i) at \(box): \(found.filter { $0.polarity == .dark }.map(\.box))")
        }
        let c = CharacterCandidateFinder.Configuration()
        for candidate in found {
            XCTAssertGreaterThanOrEqual(candidate.box.height, c.minimumHeight)
            XCTAssertLessThanOrEqual(candidate.box.height, c.maximumHeight)
            XCTAssertGreaterThanOrEqual(candidate.fill, 0.12)
        }
    }

    func testLightDigitsAreLightCandidates() {
        let (image, boxes) = frame("380", background: 30, ink: 220)
        let found = candidates(in: image)
        for box in boxes {
            XCTAssertTrue(found.contains { $0.polarity == .light && isCandidate($0.box, for: box) }, "\(box)")
            XCTAssertFalse(found.contains { $0.polarity == .dark && isCandidate($0.box, for: box) }, "\(box)")
        }
    }

    func testCandidatesOfACoarserLevelAreInFullImageCoordinates() {
        // The same digits at half size, found at level 1 with scale 2.
        let (image, boxes) = frame("380")
        var half = GrayImage(width: 0, height: 0)
        ImagePyramid.halve(image, into: &half)
        let found = candidates(in: half, level: 1, scale: 2)
        for box in boxes {
            XCTAssertTrue(
                found.contains { $0.level == 1 && $0.polarity == .dark && abs($0.box.midX - box.midX) <= 4 && abs($0.box.height - box.height) <= 4 },
                "\(box): \(found.map(\.box))")
        }
        XCTAssertTrue(found.allSatisfy { $0.box.x % 2 == 0 && $0.box.width % 2 == 0 })
    }

    func testBlobsThatAreNoCharacterShapeAreNotCandidates() {
        var image = GrayImage(width: 200, height: 120, fill: 190)
        for y in 30..<66 { for x in 20..<50 { image[x, y] = 40 } }  // a solid block: fill 1
        for y in 30..<36 { for x in 70..<150 { image[x, y] = 40 } }  // a flat bar, wider than tall
        for y in 90..<96 { for x in 170..<176 { image[x, y] = 40 } }  // a speck, below the minimum height
        // (The light ring local contrast leaves around the block is a light candidate; dark ones there are none.)
        let dark = candidates(in: image).filter { $0.polarity == .dark }
        XCTAssertTrue(dark.isEmpty, "\(dark.map(\.box))")
        XCTAssertTrue(candidates(in: GrayImage(width: 200, height: 120, fill: 128)).isEmpty)
    }

    // MARK: - Lines

    func testTheDigitsOfANumberMakeOneLevelLine() {
        let (image, boxes) = frame("380")
        let lines = LineFinder().lines(from: candidates(in: image))
        guard let line = lines.first else { return XCTFail("no line") }
        // Tallest first.
        XCTAssertEqual(lines.map(\.digitHeight), lines.map(\.digitHeight).sorted(by: >))
        XCTAssertEqual(line.polarity, .dark)
        XCTAssertEqual(line.digitHeight, 36, accuracy: 2)
        XCTAssertEqual(line.angle, 0, accuracy: 0.02)
        XCTAssertGreaterThanOrEqual(line.candidates.count, 3)
        XCTAssertTrue(line.candidatesAreCharacters)
        let number = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
        XCTAssertTrue(isClose(line.boundingBox, number, within: 2), "\(line.boundingBox) vs \(number)")
        XCTAssertEqual(line.centerX, number.midX, accuracy: 2)
        XCTAssertEqual(line.centerY, number.midY, accuracy: 2)
        XCTAssertEqual(line.length, Double(number.width), accuracy: 3)
    }

    func testARotatedNumberGivesTheLinesAngle() {
        let (image, _) = frame("380", angleDegrees: 5)
        guard let line = LineFinder().lines(from: candidates(in: image)).first else { return XCTFail("no line") }
        XCTAssertEqual(line.angle, 5 * .pi / 180, accuracy: 0.03)
        XCTAssertEqual(line.polarity, .dark)
    }

    func testNeighboursMustAgreeInPolarityHeightPlaceAndLevel() {
        let finder = LineFinder()
        // Three digits 30 tall, 20 wide, 6 apart: one line.
        let row = [candidate(10, 10, 20, 30), candidate(36, 10, 20, 30), candidate(62, 10, 20, 30)]
        let lines = finder.lines(from: row)
        XCTAssertEqual(lines.count, 1)
        XCTAssertEqual(lines.first?.candidates.count, 3)
        XCTAssertEqual(lines.first?.digitHeight, 30)
        XCTAssertEqual(lines.first?.angle ?? 1, 0, accuracy: 1e-12)
        XCTAssertEqual(lines.first?.length ?? 0, 72, accuracy: 1e-9)
        // One blob alone is not a line.
        XCTAssertTrue(finder.lines(from: [candidate(10, 10, 20, 30)]).isEmpty)
        // Opposite polarities do not chain.
        XCTAssertTrue(finder.lines(from: [candidate(10, 10, 20, 30), candidate(36, 10, 20, 30, .light)]).isEmpty)
        // Too different in height (30 vs 50), too far apart (a gap of 40 > 30), too far off level (12 > 0.22 * 30).
        XCTAssertTrue(finder.lines(from: [candidate(10, 10, 20, 30), candidate(36, 0, 30, 50)]).isEmpty)
        XCTAssertTrue(finder.lines(from: [candidate(10, 10, 20, 30), candidate(70, 10, 20, 30)]).isEmpty)
        XCTAssertTrue(finder.lines(from: [candidate(10, 10, 20, 30), candidate(36, 22, 20, 30)]).isEmpty)
    }

    func testTheSameDigitFoundAtTwoLevelsCountsOnce() {
        let finder = LineFinder()
        let level0 = [candidate(10, 10, 20, 30), candidate(36, 10, 20, 30)]
        let level1 = [candidate(10, 10, 20, 30, level: 1), candidate(36, 10, 22, 30, level: 1)]
        let lines = finder.lines(from: level1 + level0)
        XCTAssertEqual(lines.count, 1)
        XCTAssertEqual(lines.first?.candidates.count, 2)
        XCTAssertEqual(lines.first?.candidates.map(\.level), [0, 0])
    }

    func testUpperAndLowerHalvesOfLCDDigitsAreAlsoProposedAsOneLine() {
        // Wide half-digit blobs (20 x 16) in two rows 4 px apart.
        let upper = [candidate(10, 10, 20, 16), candidate(36, 10, 20, 16), candidate(62, 10, 20, 16)]
        let lower = [candidate(10, 30, 20, 16), candidate(36, 30, 20, 16), candidate(62, 30, 20, 16)]
        let lines = LineFinder().lines(from: upper + lower)
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines.first?.digitHeight, 36)  // the union, from the top of one row to the bottom of the other
        XCTAssertEqual(lines.first?.candidates.count, 6)
        XCTAssertEqual(lines.first?.boundingBox, PixelRect(x: 10, y: 10, width: 72, height: 36))
        // Whole digits (narrow blobs) stacked as closely are two lines of their own, never merged.
        let top = [candidate(10, 10, 16, 30), candidate(36, 10, 16, 30)]
        let bottom = [candidate(10, 44, 16, 30), candidate(36, 44, 16, 30)]
        XCTAssertEqual(LineFinder().lines(from: top + bottom).count, 2)
    }

    // MARK: - Configuration

    func testOverlappingNeighboursChainOnlyDownToTheConfiguredMinimumGap() {
        // Boxes 30 tall overlapping by 6 px: a gap of -0.2 digit heights, within the default -0.35.
        let pair = [candidate(10, 10, 20, 30), candidate(24, 10, 20, 30)]
        XCTAssertEqual(LineFinder().lines(from: pair).count, 1)
        var configuration = LineFinder.Configuration()
        configuration.minimumGap = -0.1
        XCTAssertTrue(LineFinder(configuration: configuration).lines(from: pair).isEmpty)
    }

    func testAFittedAngleIsClampedToTheConfiguredMaximum() {
        // Centres rising 4 px per 26 px: atan(4 / 26), about 0.153 rad, below the default 0.3.
        let row = [candidate(10, 10, 20, 30), candidate(36, 14, 20, 30), candidate(62, 18, 20, 30)]
        XCTAssertEqual(LineFinder().lines(from: row).first?.angle ?? 0, atan(4.0 / 26), accuracy: 1e-9)
        var configuration = LineFinder.Configuration()
        configuration.maximumAngle = 0.1
        XCTAssertEqual(LineFinder(configuration: configuration).lines(from: row).first?.angle, 0.1)
    }

    func testCandidatesMustFillTheConfiguredShareOfTheirBox() {
        let (image, _) = frame("380")
        XCTAssertFalse(candidates(in: image).filter { $0.polarity == .dark }.isEmpty)
        // Segment digits fill well under 90% of their boxes.
        var configuration = CharacterCandidateFinder.Configuration()
        configuration.minimumFill = 0.9
        var finder = CharacterCandidateFinder(configuration: configuration)
        var found: [CharacterCandidate] = []
        finder.find(in: image, level: 0, scale: 1, into: &found)
        XCTAssertTrue(found.filter { $0.polarity == .dark }.isEmpty, "\(found.map(\.box))")
    }

    func testTheLocatorsConfigurationReachesItsParts() {
        var frame = WorkingFrame()
        frame.update(from: self.frame("380").image)
        var locator = RuleLineLocator()
        let lines = locator.locate(in: frame)
        XCTAssertTrue(lines.contains { $0.candidatesAreCharacters && $0.candidates.count >= 3 })
        XCTAssertTrue(lines.contains { !$0.candidatesAreCharacters }, "a display crop: row profile bands too")
        // Lines of at least 100 candidates, bands at least 1000 px tall: none of either.
        locator.configuration.lines.minimumCandidates = 100
        locator.configuration.profile.minimumHeight = 1000
        let none = locator.locate(in: frame)
        XCTAssertTrue(none.isEmpty, "\(none.map { ($0.boundingBox, $0.candidates.count, $0.candidatesAreCharacters) })")
        XCTAssertFalse(locator.candidates.isEmpty, "the candidates themselves are still found")
    }
}
