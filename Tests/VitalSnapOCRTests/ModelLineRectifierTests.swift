import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

/// The ink polarity `ModelLineRectifier` gives the stages after it (glare), from a line crop.
final class ModelLineRectifierTests: XCTestCase {
    /// A 32-row crop: `background` everywhere, and `ink` over `share` of each row of the characters' band.
    func crop(background: UInt8, ink: UInt8, share: Double) -> GrayImage {
        var image = GrayImage(width: 40, height: LineCropper.height, fill: background)
        for y in LineCropper.digitTop..<LineCropper.digitBottom {
            for x in 0..<Int(share * 40) { image[x, y] = ink }
        }
        return image
    }

    let band = LineCropper.digitTop..<LineCropper.digitBottom

    func testThickDarkSegmentsOnALightDisplayAreDarkInk() {
        // Segments over 60% of the band: the band alone (its mean against its median) takes them for the
        // display; the rows above and below show the display.
        let image = crop(background: 200, ink: 40, share: 0.6)
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: image, againstMarginsOf: band), .dark)
        var histogram = Histogram()
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: image, rows: band, histogram: &histogram), .light)
    }

    /// The band's histogram is scratch space kept between lines: what an earlier crop left in it does not count.
    func testTheBandAloneIsJudgedAfreshWithAReusedHistogram() {
        var histogram = Histogram()
        let dark = crop(background: 200, ink: 40, share: 0.3), light = crop(background: 30, ink: 230, share: 0.3)
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: dark, rows: band, histogram: &histogram), .dark)
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: light, rows: band, histogram: &histogram), .light)
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: dark, rows: band, histogram: &histogram), .dark)
        // Rows below the crop count for nothing.
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: light, rows: 40..<50, histogram: &histogram), .dark)
    }

    func testLitSegmentsOnADarkDisplayAreLightInk() {
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: crop(background: 30, ink: 230, share: 0.6), againstMarginsOf: band), .light)
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: crop(background: 30, ink: 230, share: 0.3), againstMarginsOf: band), .light)
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: crop(background: 200, ink: 40, share: 0.3), againstMarginsOf: band), .dark)
    }

    /// A frame with a line of `ink` stripes covering `share` of its band (40 px tall, 120 long, at (100, 50)) on
    /// a `background` display that reaches well above and below it, rectified.
    func rectified(background: UInt8, ink: UInt8, share: Double) -> RectifiedLine {
        var frame = GrayImage(width: 200, height: 100, fill: background)
        for y in 30..<70 {
            for x in 40..<160 where Double((x - 40) % 10) < share * 10 { frame[x, y] = ink }
        }
        var pyramid = ImagePyramid()
        pyramid.update(from: frame, maximumLevels: 1)
        let line = TextLine(candidates: [], polarity: .dark, centerX: 100, centerY: 50, angle: 0, length: 120,
                            digitHeight: 40, candidatesAreCharacters: false, role: .value)
        var rectifier = ModelLineRectifier()
        var out = RectifiedLine()
        rectifier.rectify(line, pyramid: pyramid, into: &out)
        return out
    }

    /// Told against the display's rows above and below the characters, the polarity is sure where the band
    /// alone says the same; thick segments the band alone takes for the display leave it unsure (the glare
    /// check then needs glare seen with both polarities).
    func testThePolarityIsSureWhereTheMarginsAndTheBandAgree() {
        let thin = rectified(background: 200, ink: 40, share: 0.3)
        XCTAssertEqual(thin.polarity, .dark)
        XCTAssertTrue(thin.polarityIsSure)
        let lit = rectified(background: 30, ink: 230, share: 0.3)
        XCTAssertEqual(lit.polarity, .light)
        XCTAssertTrue(lit.polarityIsSure)
        let thick = rectified(background: 200, ink: 40, share: 0.7)
        XCTAssertEqual(thick.polarity, .dark)
        XCTAssertFalse(thick.polarityIsSure)
    }
}
