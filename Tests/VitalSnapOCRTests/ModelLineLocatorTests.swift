import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// The trained locator looks again, closer, at the part of the frame where it found lines, when that part is
/// small; the network itself is checked by the parity tests, and the whole reader by the samples' accuracy.
struct ModelLineLocatorTests {
    func line(x: Double, y: Double, length: Double, height: Double) -> TextLine {
        TextLine(candidates: [], polarity: .dark, centerX: x, centerY: y, angle: 0, length: length, digitHeight: height,
                 candidatesAreCharacters: false, role: .value)
    }

    @Test func theRegionHoldsEveryLineWithAMarginOfTheTallestDigitHeight() throws {
        let configuration = ModelLineLocator.Configuration()
        // Two stacked values of a small display in a 640x480 frame: 100 px long, 40 and 20 px tall.
        let lines = [line(x: 300, y: 200, length: 100, height: 40), line(x: 310, y: 250, length: 60, height: 20)]
        let region = try #require(configuration.zoomRegion(lines, width: 640, height: 480))
        let margin = configuration.zoomMargin * 40
        #expect(region.x == Int((250 - margin).rounded(.down)))
        #expect(region.y == Int((180 - margin).rounded(.down)))
        #expect(region.x + region.width == Int((350 + margin).rounded(.up)))
        #expect(region.y + region.height == Int((260 + margin).rounded(.up)))
    }

    @Test func theRegionStopsAtTheFrame() throws {
        let lines = [line(x: 20, y: 15, length: 30, height: 20)]
        let region = try #require(ModelLineLocator.Configuration().zoomRegion(lines, width: 640, height: 480))
        #expect(region.x == 0 && region.y == 0)
    }

    @Test func noSecondLookWhereTheLinesFillTheFrameOrThereAreNone() {
        let configuration = ModelLineLocator.Configuration()
        #expect(configuration.zoomRegion([], width: 640, height: 480) == nil)
        // A display crop: its one line spans most of the frame.
        #expect(configuration.zoomRegion([line(x: 100, y: 15, length: 180, height: 22)], width: 200, height: 31) == nil)
        var off = configuration
        off.zoomMaximumArea = 0
        #expect(off.zoomRegion([line(x: 300, y: 200, length: 100, height: 40)], width: 640, height: 480) == nil)
    }
}
