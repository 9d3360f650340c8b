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
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: image, rows: band), .light)
    }

    func testLitSegmentsOnADarkDisplayAreLightInk() {
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: crop(background: 30, ink: 230, share: 0.6), againstMarginsOf: band), .light)
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: crop(background: 30, ink: 230, share: 0.3), againstMarginsOf: band), .light)
        XCTAssertEqual(ModelLineRectifier.inkPolarity(of: crop(background: 200, ink: 40, share: 0.3), againstMarginsOf: band), .dark)
    }
}
