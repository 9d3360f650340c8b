import Foundation
import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

/// The reader's lines (`DisplayReader.readLines`: locate, rectify, recognize, place, keep the best), rule-based, on
/// small synthetic frames: 200x120, one number with LCD digits 36 px tall (segments 4.5 px thick, one pixel
/// apart), placed at (60, 40).
final class DisplayReaderLinesTests: XCTestCase {
    let font = SegmentText().scaled(36.0 / 32)

    /// A rule-based reader for any numeric display, one for all frames as for a stream. The synthetic frames are
    /// read as whole frames (not as crops of a display) unless `displayCrops`.
    func lineReader(displayCrops: Bool = false) throws -> DisplayReader {
        var configuration = DisplayReader.Configuration()
        if !displayCrops { configuration.frame.displayCropLongSide = 0 }
        let numeric = try XCTUnwrap(try PeripheralCatalog.builtIn()[100])
        return DisplayReader(peripheral: numeric, reader: .rules, configuration: configuration)
    }

    func frame(
        _ text: String, angleDegrees: Double = 0, slant: Double = 0, background: UInt8 = 190, ink: UInt8 = 40,
        width: Int = 200, height: Int = 120, at origin: (x: Double, y: Double) = (60, 40)
    ) -> (image: GrayImage, box: PixelRect) {
        var font = self.font
        font.slant = slant
        let placement = Placement(x: origin.x, y: origin.y, angle: angleDegrees * .pi / 180)
        let image = Frames.render(text, as: font, width: width, height: height, placement: placement, background: background, ink: ink)
        let boxes = font.characterBoxes(text).map { Frames.frameBox(x0: $0.x0, y0: $0.y0, x1: $0.x1, y1: $0.y1, placement: placement) }
        return (image, boxes.dropFirst().reduce(boxes[0]) { $0.union($1) })
    }

    /// A light blur (1-2-1 in both directions), as any camera gives.
    func softened(_ image: GrayImage) -> GrayImage {
        var out = image
        let k = [1, 2, 1]
        for y in 0..<image.height {
            for x in 0..<image.width {
                var sum = 0, weight = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let xx = x + dx, yy = y + dy
                        guard xx >= 0, yy >= 0, xx < image.width, yy < image.height else { continue }
                        let w = k[dx + 1] * k[dy + 1]
                        sum += w * Int(image[xx, yy])
                        weight += w
                    }
                }
                out[x, y] = UInt8((sum + weight / 2) / weight)
            }
        }
        return out
    }

    /// Checks that the first (most prominent) of `lines` reads `text` where the number was drawn.
    func assertReads(
        _ lines: [RecognizedLine], _ text: String, box: PixelRect, polarity: InkPolarity, _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let found = lines.first(where: { $0.text == text }) else {
            return XCTFail("\(what): no line reads \(text); got \(lines.map(\.text))", file: file, line: line)
        }
        XCTAssertEqual(lines.first?.text, text, "\(what): \(lines.map(\.text))", file: file, line: line)
        XCTAssertEqual(found.polarity, polarity, what, file: file, line: line)
        XCTAssertEqual(found.digitHeight, 36, accuracy: 4, what, file: file, line: line)
        XCTAssertGreaterThanOrEqual(found.confidence, 0.5, what, file: file, line: line)
        XCTAssertFalse(found.hasGap, what, file: file, line: line)
        XCTAssertNotNil(found.corners, what, file: file, line: line)
        // Corners in the caller's image coordinates (not the working resolution): around the drawn number.
        let overlap = found.boundingBox.intersection(box).area
        XCTAssertGreaterThanOrEqual(Double(overlap), 0.7 * Double(box.area), "\(what): \(found.boundingBox) vs \(box)", file: file, line: line)
        XCTAssertLessThanOrEqual(Double(found.boundingBox.area), 2.0 * Double(box.area), "\(what): \(found.boundingBox) vs \(box)", file: file, line: line)
    }

    func testDarkDigitsRotatedAndItalic() throws {
        var reader = try lineReader()
        for number in ["123", "907", "456", "380", "12.5"] {
            let (image, box) = frame(number, angleDegrees: 5, slant: 0.15)
            assertReads(try reader.readLines(image), number, box: box, polarity: .dark, "\(number) rotated 5 degrees, slant 0.15")
        }
    }

    func testLightDigitsOnADarkBackground() throws {
        var reader = try lineReader()
        for number in ["123", "907", "456"] {
            let rotated = frame(number, angleDegrees: 5, slant: 0.15, background: 30, ink: 220)
            assertReads(try reader.readLines(rotated.image), number, box: rotated.box, polarity: .light, "\(number) light, rotated, italic")
            let italic = frame(number, slant: 0.15, background: 30, ink: 220)
            assertReads(try reader.readLines(italic.image), number, box: italic.box, polarity: .light, "\(number) light, italic")
        }
    }

    func testUprightDigitsAsACameraSeesThem() throws {
        // Softened a little: perfectly sharp upright digits are the subject of a report.
        var reader = try lineReader()
        for number in ["123", "907", "456", "380"] {
            let (image, box) = frame(number)
            assertReads(try reader.readLines(softened(image)), number, box: box, polarity: .dark, "\(number) upright")
        }
    }

    func testALargerFrameIsReadAtWorkingResolutionAndReportedInItsOwnCoordinates() throws {
        // 1800 px wide: halved to 900 for detection; digits 3x larger, far from the origin.
        var big = font.scaled(3)
        big.slant = 0.15
        let placement = Placement(x: 900, y: 250, angle: 5 * .pi / 180)
        let image = Frames.render("907", as: big, width: 1800, height: 600, placement: placement, background: 190, ink: 40)
        let boxes = big.characterBoxes("907").map { Frames.frameBox(x0: $0.x0, y0: $0.y0, x1: $0.x1, y1: $0.y1, placement: placement) }
        let box = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
        var reader = try lineReader()
        let lines = try reader.readLines(image)
        guard let found = lines.first(where: { $0.text == "907" }) else { return XCTFail("got \(lines.map(\.text))") }
        XCTAssertEqual(found.digitHeight, 108, accuracy: 10)
        XCTAssertGreaterThanOrEqual(Double(found.boundingBox.intersection(box).area), 0.7 * Double(box.area))
        XCTAssertEqual(reader.workingImage.width, 900)
    }

    /// A sample photo of a small thermometer on a desk: the blurred body and frame around the window read as a
    /// line `--` eight times as tall as the digits. Dashes carry no digit height, so that line must not claim
    /// the number inside it as pieces of its own digits (it did, and nothing was read).
    func testALargeLineOfDashesDoesNotSwallowTheNumberInsideIt() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Samples/stills")
        let photo = try ImageDecoder.decode(contentsOf: samples.appendingPathComponent("thermometer-t1/thermometer-t1-03.jpg").path)
        var reader = try lineReader(displayCrops: true)
        let lines = try reader.readLines(photo.image)
        XCTAssertTrue(lines.contains { $0.text == "36.7" }, "\(lines.map(\.text))")
        XCTAssertTrue(reader.trace.log.contains { $0.contains("-> '--'") }, "the sample no longer shows the dashes line")
    }

    func testFramesWithoutDigitsGiveNoLines() throws {
        var reader = try lineReader()
        XCTAssertTrue(try reader.readLines(GrayImage(width: 200, height: 120, fill: 170)).isEmpty)
        // A smooth gradient and a single bar are not numbers either.
        var gradient = GrayImage(width: 200, height: 120)
        for y in 0..<120 { for x in 0..<200 { gradient[x, y] = UInt8(40 + x / 2 + y / 4) } }
        XCTAssertTrue(try reader.readLines(gradient).isEmpty)
        XCTAssertTrue(try reader.readLines(GrayImage(width: 7, height: 7, fill: 0)).isEmpty)
    }
}
