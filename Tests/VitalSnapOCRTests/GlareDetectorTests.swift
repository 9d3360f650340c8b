import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

/// `GlareDetector` on a 160x100 frame whose display window is the rectangle (20, 10) 120x80, holding three
/// digits 30 px tall at x = 40, 62, 84 (16 wide), y = 35.
final class GlareDetectorTests: XCTestCase {
    let display = PixelRect(x: 20, y: 10, width: 120, height: 80)
    let digits = [PixelRect(x: 40, y: 35, width: 16, height: 30), PixelRect(x: 62, y: 35, width: 16, height: 30), PixelRect(x: 84, y: 35, width: 16, height: 30)]

    /// The frame: the body around the display at 90, the display at `background`, digit strokes at `ink`
    /// (an outline 3 px wide around each digit box, and a middle bar: 8s).
    func frame(background: UInt8, ink: UInt8) -> GrayImage {
        var image = GrayImage(width: 160, height: 100, fill: 90)
        fill(&image, display, background)
        for d in digits {
            fill(&image, PixelRect(x: d.x, y: d.y, width: d.width, height: 3), ink)
            fill(&image, PixelRect(x: d.x, y: d.maxY - 3, width: d.width, height: 3), ink)
            fill(&image, PixelRect(x: d.x, y: d.y + d.height / 2 - 1, width: d.width, height: 3), ink)
            fill(&image, PixelRect(x: d.x, y: d.y, width: 3, height: d.height), ink)
            fill(&image, PixelRect(x: d.maxX - 3, y: d.y, width: 3, height: d.height), ink)
        }
        return image
    }

    func fill(_ image: inout GrayImage, _ rect: PixelRect, _ level: UInt8) {
        for y in rect.minY..<rect.maxY { for x in rect.minX..<rect.maxX { image[x, y] = level } }
    }

    func detect(_ image: GrayImage, polarity: InkPolarity = .dark, digits: [PixelRect]? = nil) -> GlareReport {
        var detector = GlareDetector()
        return detector.detect(in: image, display: display, digits: digits ?? self.digits, polarity: polarity)
    }

    func testASaturatedBlobOverADigitCoversTheDigits() {
        var image = frame(background: 190, ink: 40)
        let blob = PixelRect(x: 58, y: 40, width: 20, height: 16)
        fill(&image, blob, 255)
        let report = detect(image)
        XCTAssertTrue(report.coversDigits)
        XCTAssertEqual(report.regions, [blob])
        XCTAssertEqual(report.share, Double(blob.area) / Double(display.area), accuracy: 1e-12)
        XCTAssertNotNil(report.advice)
    }

    /// A binarized crop: black digits on a white panel on black. The panel is the brightest thing there and
    /// spans the digits, but it is no reflection; the same layout with a grey display around the panel is glare.
    func testAThresholdedImageHasNoGlare() {
        func panelFrame(display level: UInt8) -> GrayImage {
            var image = frame(background: level, ink: 0)
            fill(&image, PixelRect(x: 0, y: 0, width: 160, height: 100), 0)
            fill(&image, display, level)
            fill(&image, PixelRect(x: 36, y: 30, width: 68, height: 40), 255)
            for d in digits {
                fill(&image, PixelRect(x: d.x, y: d.y, width: d.width, height: 3), 0)
                fill(&image, PixelRect(x: d.x, y: d.y + d.height / 2 - 1, width: d.width, height: 3), 0)
                fill(&image, PixelRect(x: d.x, y: d.y, width: 3, height: d.height), 0)
            }
            return image
        }
        let binarized = detect(panelFrame(display: 0))
        XCTAssertFalse(binarized.coversDigits)
        XCTAssertEqual(binarized.regions, [])
        XCTAssertTrue(detect(panelFrame(display: 100)).coversDigits)
    }

    func testGlareBesideTheDigitsDoesNotCoverThem() {
        var image = frame(background: 190, ink: 40)
        let blob = PixelRect(x: 104, y: 14, width: 30, height: 20)  // top right of the display, clear of the digits
        fill(&image, blob, 250)
        let report = detect(image)
        XCTAssertFalse(report.coversDigits)
        XCTAssertEqual(report.regions, [blob])
        XCTAssertGreaterThan(report.share, 0)
        XCTAssertEqual(report.share, 600.0 / 9600.0, accuracy: 1e-12)
    }

    /// The white body around a window, caught inside the display region along two sides, is one blob whose
    /// bounding box spans the digits; none of its pixels is on them.
    func testABrightBlobWhoseBoxSpansTheDigitsButNotItsPixelsDoesNotCoverThem() {
        var image = frame(background: 190, ink: 40)
        fill(&image, PixelRect(x: 20, y: 10, width: 12, height: 80), 252)  // left side of the region
        fill(&image, PixelRect(x: 20, y: 80, width: 120, height: 10), 252)  // and along its bottom
        let report = detect(image)
        XCTAssertEqual(report.regions, [PixelRect(x: 20, y: 10, width: 120, height: 80)])
        XCTAssertFalse(report.coversDigits)
        // The same blob reaching onto one digit's stroke does cover it.
        fill(&image, PixelRect(x: 40, y: 60, width: 6, height: 30), 252)
        XCTAssertTrue(detect(image).coversDigits)
    }

    /// The white casing beside a window of dark digits, reaching past where blobs are followed, is no reflection:
    /// where the last digit's box grazes it (the window's edge runs slanted past the digit, and a located line
    /// reaches beyond it), the digit is not covered; where the casing fills a tenth of the box or more, it is.
    /// The same sliver lit by a compact spot inside the window covers the digit.
    func testTheBrightBodyGrazingADigitsBoxDoesNotCoverIt() {
        func casing(from x: Int) -> GrayImage {
            var image = frame(background: 150, ink: 40)
            fill(&image, PixelRect(x: 140, y: 0, width: 20, height: 100), 252)  // beyond the window's right side
            fill(&image, PixelRect(x: 0, y: 90, width: 160, height: 10), 252)  // and below it
            fill(&image, PixelRect(x: x, y: 50, width: 140 - x, height: 40), 252)  // its slanted corner
            return image
        }
        let grazing = detect(casing(from: 99))
        XCTAssertFalse(grazing.regions.isEmpty, "the casing is bright enough to be found")
        XCTAssertFalse(grazing.coversDigits, "\(grazing.regions)")
        XCTAssertTrue(detect(casing(from: 94)).coversDigits)
        // Held to a digit's share like any blob (as until 2026-12-06), the grazing casing covers the digit.
        var strict = GlareDetector()
        strict.configuration.bodyCoverShare = strict.configuration.digitCoverShare
        XCTAssertTrue(strict.detect(in: casing(from: 99), display: display, digits: digits, polarity: .dark).coversDigits)
        var spot = frame(background: 150, ink: 40)
        fill(&spot, PixelRect(x: 99, y: 50, width: 8, height: 15), 252)
        XCTAssertTrue(detect(spot).coversDigits)
    }

    func testAClearDisplayHasNoGlare() {
        let report = detect(frame(background: 190, ink: 40))
        XCTAssertEqual(report, GlareReport(regions: [], share: 0, coversDigits: false))
        XCTAssertNil(report.advice)
    }

    func testSpecksAndGlareOutsideTheDisplayAreIgnored() {
        var image = frame(background: 190, ink: 40)
        fill(&image, PixelRect(x: 64, y: 50, width: 4, height: 4), 255)  // 16 px < 0.4% of 9600 = 38
        fill(&image, PixelRect(x: 0, y: 0, width: 18, height: 100), 255)  // on the body, left of the display
        let report = detect(image)
        XCTAssertTrue(report.regions.isEmpty)
        XCTAssertFalse(report.coversDigits)
    }

    func testGlareMustBeFarBrighterThanABrightBackground() {
        // Background 220: the level is 220 + 0.55 * 35 = 239.25, so 239 and above.
        var image = frame(background: 220, ink: 40)
        fill(&image, PixelRect(x: 58, y: 40, width: 20, height: 16), 235)
        XCTAssertTrue(detect(image).regions.isEmpty)
        fill(&image, PixelRect(x: 58, y: 40, width: 20, height: 16), 245)
        XCTAssertTrue(detect(image).coversDigits)
    }

    /// A light LCD lit unevenly: its background at 190, but 236 across the last digit's cell, top to bottom.
    /// That is the display's own grey, not a reflection (below `minimumLevel`); a spot brighter still is glare.
    func testABrighterStretchOfTheBackgroundIsNotGlare() {
        var image = frame(background: 190, ink: 40)
        for y in display.minY..<display.maxY {
            for x in 82..<102 where image[x, y] != 40 { image[x, y] = 236 }
        }
        XCTAssertFalse(detect(image).coversDigits, "\(detect(image).regions)")
        fill(&image, PixelRect(x: 86, y: 40, width: 12, height: 14), 250)
        XCTAssertTrue(detect(image).coversDigits)
    }

    func testBrightDigitsOfABacklitDisplayAreNotGlare() {
        let image = frame(background: 30, ink: 250)
        let report = detect(image, polarity: .light)
        XCTAssertTrue(report.regions.isEmpty, "\(report.regions)")
        XCTAssertFalse(report.coversDigits)
        XCTAssertEqual(report.share, 0)
        // Read as dark-on-light the same bright strokes would count: the polarity is what keeps them out.
        XCTAssertFalse(detect(image, polarity: .dark).regions.isEmpty)
    }

    /// A backlit display in a bright body (grey 200, above the glare level of a dark window with lit digits),
    /// its first digit joined to the window's edge by a lit bar: the body, bar and digit are one bright blob with
    /// a solid core, but one reaching past the display as far as it is followed is the device around the
    /// window, not a reflection on it. A reflection on the digits still is.
    func testTheBrightBodyAroundABacklitDisplayIsNotGlareOverItsDigits() {
        var image = frame(background: 30, ink: 250)
        fill(&image, PixelRect(x: 0, y: 0, width: 160, height: 10), 200)
        fill(&image, PixelRect(x: 0, y: 90, width: 160, height: 10), 200)
        fill(&image, PixelRect(x: 0, y: 0, width: 20, height: 100), 200)
        fill(&image, PixelRect(x: 140, y: 0, width: 20, height: 100), 200)
        fill(&image, PixelRect(x: 20, y: 48, width: 20, height: 4), 250)
        let report = detect(image, polarity: .light)
        XCTAssertFalse(report.regions.isEmpty, "the body is bright enough to be found")
        XCTAssertFalse(report.coversDigits, "\(report.regions)")
        fill(&image, PixelRect(x: 62, y: 38, width: 30, height: 24), 255)
        XCTAssertTrue(detect(image, polarity: .light).coversDigits)
    }

    func testGlareLargerThanADigitOnABacklitDisplayIsGlare() {
        var image = frame(background: 30, ink: 250)
        let blob = PixelRect(x: 50, y: 30, width: 40, height: 40)
        fill(&image, blob, 255)
        let report = detect(image, polarity: .light)
        XCTAssertTrue(report.coversDigits)
        XCTAssertEqual(report.regions.count, 1)
        // The blob merges with the digit strokes it touches.
        XCTAssertTrue(report.regions[0].intersection(blob) == blob)
        XCTAssertGreaterThan(report.share, Double(blob.area) / Double(display.area) - 1e-12)
    }

    /// On a backlit display a lit band across the window, joined to the lit strokes it crosses and with a
    /// solid core of its own, is a strip, not a reflection: it does not cover the digits. A compact spot of the
    /// same brightness over them instead does.
    func testALitBandAcrossABacklitDisplayIsNotGlareOverItsDigits() {
        var banded = frame(background: 30, ink: 250)
        fill(&banded, PixelRect(x: 26, y: 46, width: 104, height: 8), 252)
        let band = detect(banded, polarity: .light)
        XCTAssertEqual(band.regions.count, 1, "the band is bright and solid enough to be found")
        XCTAssertFalse(band.coversDigits, "\(band.regions)")
        var spotted = frame(background: 30, ink: 250)
        fill(&spotted, PixelRect(x: 60, y: 36, width: 22, height: 26), 252)
        XCTAssertTrue(detect(spotted, polarity: .light).coversDigits)
    }

    /// The cell before the number, where glare can hide a leading digit (11.4 read as 1.4).
    let cellBefore = PixelRect(x: 22, y: 35, width: 18, height: 30)
    let cellAfter = PixelRect(x: 100, y: 35, width: 40, height: 30)

    func detect(_ image: GrayImage, nearby: [PixelRect]) -> GlareReport {
        var detector = GlareDetector()
        return detector.detect(in: image, display: display, digits: digits, nearby: nearby, polarity: .dark)
    }

    /// A spot in the cell before the number that spills over the edge of the display region is still a
    /// reflection: it is followed beyond the region and ends there.
    func testACompactSpotBeforeTheNumberReachingPastTheDisplayRegionCovers() {
        var image = frame(background: 190, ink: 40)
        fill(&image, PixelRect(x: 4, y: 30, width: 32, height: 40), 252)
        let report = detect(image, nearby: [cellBefore, cellAfter])
        XCTAssertTrue(report.coversDigits)
        XCTAssertEqual(report.regions, [PixelRect(x: 4, y: 30, width: 32, height: 40)])
    }

    /// The cell before the number may lie wholly past the display region the reader drew (a trained locator's
    /// line can end at the last digit it could read, the one under the glare left out): a spot there counts.
    func testACompactSpotInACellBeforeTheDisplayRegionCovers() {
        var image = frame(background: 190, ink: 40)
        let spot = PixelRect(x: 3, y: 36, width: 16, height: 28)
        fill(&image, spot, 252)
        let outside = PixelRect(x: 2, y: 35, width: 18, height: 30)
        XCTAssertFalse(detect(image, nearby: []).coversDigits)
        let report = detect(image, nearby: [outside, cellAfter])
        XCTAssertTrue(report.coversDigits)
        XCTAssertEqual(report.regions, [spot])
    }

    /// A long bright strip along the side of the window is the device's body, not a reflection.
    func testALongStripBesideTheNumberDoesNotCover() {
        var image = frame(background: 190, ink: 40)
        fill(&image, PixelRect(x: 134, y: 12, width: 14, height: 76), 252)
        let report = detect(image, nearby: [cellBefore, cellAfter])
        XCTAssertEqual(report.regions.count, 1)
        XCTAssertFalse(report.coversDigits)
    }

    /// On a backlit display a reflection need be no brighter than the lit segments (here both below the
    /// level that counts as glare on a reflective display); its solid core tells it from them.
    func testASolidSpotAsBrightAsBacklitDigitsIsGlare() {
        var image = frame(background: 30, ink: 215)
        XCTAssertFalse(detect(image, polarity: .light).coversDigits)
        fill(&image, PixelRect(x: 58, y: 38, width: 24, height: 24), 212)
        let report = detect(image, polarity: .light)
        XCTAssertTrue(report.coversDigits)
        XCTAssertEqual(report.regions.count, 1)
    }

    /// A lit digit of a bold font (strokes 8 px wide, over a quarter of its 30 px height) on a backlit display is
    /// a blob shaped as one digit with a solid core a quarter of a digit height wide: not glare, where a spot of
    /// that core's size not shaped as a digit is, and a digit lit solid all over (a third of a digit height of
    /// core and more) is too.
    func testABoldLitDigitOfABacklitDisplayIsNotGlare() {
        var bold = frame(background: 30, ink: 250)
        fill(&bold, PixelRect(x: 72, y: 35, width: 8, height: 30), 250)  // a `4` 20 px wide: its upright,
        fill(&bold, PixelRect(x: 60, y: 50, width: 20, height: 8), 250)  // its bar,
        fill(&bold, PixelRect(x: 60, y: 35, width: 8, height: 23), 250)  // its left stroke
        XCTAssertFalse(detect(bold, polarity: .light).coversDigits, "\(detect(bold, polarity: .light).regions)")
        var held = GlareDetector()
        held.configuration.digitShapedCoreDivisor = held.configuration.solidCoreDigitDivisor
        XCTAssertTrue(
            held.detect(in: bold, display: display, digits: digits, polarity: .light).coversDigits,
            "a quarter of a digit height for every blob takes the bold digit for glare")
        var solid = frame(background: 30, ink: 250)
        fill(&solid, digits[1], 252)
        XCTAssertTrue(detect(solid, polarity: .light).coversDigits, "a digit washed out whole")
    }

    func testADisplayOutsideTheImageHasNoGlare() {
        var detector = GlareDetector()
        let report = detector.detect(in: frame(background: 190, ink: 40), display: PixelRect(x: 200, y: 0, width: 50, height: 50), digits: digits, polarity: .dark)
        XCTAssertEqual(report, .none)
    }
}
