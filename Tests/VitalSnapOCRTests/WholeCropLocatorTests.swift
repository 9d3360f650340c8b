import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A crop of one display line is read as the line the recognizer learnt such crops as (`WholeCropLocator`).
struct WholeCropLocatorTests {
    static func lines(in image: GrayImage) throws -> [TextLine] {
        var frame = WorkingFrame()
        frame.update(from: image)
        var locator = WholeCropLocator()
        return try locator.locate(in: frame)
    }

    @Test func aWideCropIsOneValueLineAcrossItsMiddle() throws {
        // An electricity meter's 200x31 crop, doubled to a 400x62 working frame.
        let lines = try Self.lines(in: GrayImage(width: 200, height: 31, fill: 128))
        let line = try #require(lines.first)
        #expect(lines.count == 1 && line.role == .value && line.angle == 0)
        #expect(line.centerX == 200 && line.centerY == 31)
        #expect(abs(line.length - 400 * WholeCropLocator.lengthShare) < 1e-9)
        #expect(abs(line.digitHeight - 62 * WholeCropLocator.digitShare) < 1e-9)
    }

    @Test func aTallCropOrAWholePhotoHasNoSuchLine() throws {
        #expect(try Self.lines(in: GrayImage(width: 100, height: 185, fill: 128)).isEmpty, "taller than wide")
        #expect(try Self.lines(in: GrayImage(width: 2048, height: 1152, fill: 128)).isEmpty, "no crop of a display")
    }
}
