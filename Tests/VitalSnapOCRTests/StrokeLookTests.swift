import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A thresholded image of a plain numeric display refused after its other looks is read with its strokes' holes
/// filled (`StrokeLook`): the fill itself, which images are thresholded, then the look through the reader with
/// stand-in stages, whose recognizer reads a crop with holes in its ink unsure as one text and a solid crop sure as
/// another.
struct StrokeLookTests {
    /// A 200x100 image of `background` with a bar of `ink` across its middle 60 rows, and in the bar 2x2 holes of
    /// `background` every 10 pixels across and down.
    static func holed(ink: UInt8, background: UInt8) -> GrayImage {
        var image = GrayImage(width: 200, height: 100, fill: background)
        for y in 20..<80 {
            for x in 10..<190 where !(y % 10 < 2 && x % 10 < 2 && y > 20 && x > 10) { image.pixels[y * 200 + x] = ink }
        }
        return image
    }

    @Test func holesInEitherInkAreFilledAndNoInkIsTakenAway() {
        var buffers = StrokeLook.Buffers()
        let look = StrokeLook(radiusPerDigitHeight: 1.0 / 80)
        let solid = { (ink: UInt8, background: UInt8) in
            GrayImage(width: 200, height: 100, pixels: (0..<100).flatMap { y in
                (0..<200).map { x in (20..<80).contains(y) && (10..<190).contains(x) ? ink : background }
            })
        }
        look.fill(Self.holed(ink: 255, background: 0), ink: .light, radius: 1, into: &buffers)
        #expect(buffers.filled.pixels == solid(255, 0).pixels, "light ink's dark holes filled, its edges kept")
        look.fill(Self.holed(ink: 0, background: 255), ink: .dark, radius: 1, into: &buffers)
        #expect(buffers.filled.pixels == solid(0, 255).pixels, "dark ink's light holes filled, its edges kept")

        // A stroke one pixel wide, and a point, stay as they are in their own ink.
        var thin = GrayImage(width: 20, height: 20, fill: 0)
        for y in 0..<20 { thin.pixels[y * 20 + 10] = 255 }
        look.fill(thin, ink: .light, radius: 2, into: &buffers)
        #expect(buffers.filled.pixels == thin.pixels)
        var point = GrayImage(width: 20, height: 20, fill: 255)
        point.pixels[10 * 20 + 10] = 0
        look.fill(point, ink: .dark, radius: 2, into: &buffers)
        #expect(buffers.filled.pixels == point.pixels)
    }

    @Test func theWindowIsSizedToTheDigits() {
        let look = StrokeLook(radiusPerDigitHeight: 1.0 / 40)
        #expect(look.radius(digitHeight: 80) == 2)
        #expect(look.radius(digitHeight: 15) == 0, "under a pixel: not asked")
    }

    @Test func onlyAnImageOfBlackAndWhiteIsThresholded() {
        #expect(StrokeLook.isThresholded(Self.holed(ink: 255, background: 0)))
        #expect(StrokeLook.isThresholded(Self.holed(ink: 255, background: 0).tilted(by: 0.3)), "grey edges, as a JPEG's")
        #expect(!StrokeLook.isThresholded(Self.holed(ink: 190, background: 70)))
        let gradient = GrayImage(width: 256, height: 4, pixels: (0..<4).flatMap { _ in (0..<256).map(UInt8.init) })
        #expect(!StrokeLook.isThresholded(gradient))
        #expect(!StrokeLook.isThresholded(GrayImage(width: 0, height: 0)))
        #expect(!StrokeLook.isThresholded(GrayImage(width: 20, height: 20, fill: 10)), "all black: a dark photo")
    }

    /// Reads `unsure` at 0.3 where the crop shows holes in its ink, else `sure` at 0.95.
    struct ByHoles: CharacterRecognizer {
        var unsure = "57"
        var sure = "67"
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let (w, p) = (line.image.width, line.image.pixels.map(Int.init))
            // A gap one or two pixels wide, darker by 40 than the pixels on both sides of it along a row.
            let holed = p.indices.contains { i in
                let x = i % w
                return x >= 1 && x + 2 < w && min(p[i - 1], p[i + 2]) - max(p[i], p[i + 1]) > 40
            }
            let text = holed ? unsure : sure
            let characters = text.enumerated().map { k, c in
                RecognizedCharacter(
                    character: c, confidence: holed ? 0.3 : 0.95, segments: [], box: PixelRect(x: 8 + 14 * k, y: 6, width: 12, height: 20))
            }
            var read = LineTranscript(characters: characters, contrast: 100, hasGap: false)
            read.lineConfidence = holed ? 0.3 : 0.95
            return read
        }
    }

    /// A plain numeric display's reader whose one line, light digits 60 pixels tall, fills the 200x100 crop,
    /// with `strokeLooks` and no other look.
    func reader(strokeLooks: [StrokeLook] = ReaderStages.numericStrokeLooks, recognizer: ByHoles = ByHoles()) throws -> DisplayReader {
        let line = TextLine(
            candidates: [], polarity: .light, centerX: 100, centerY: 50, angle: 0, length: 160, digitHeight: 60,
            candidatesAreCharacters: false, role: .value)
        let stages = ReaderStages(
            locator: ViewAgreementTests.OneLine(line: line), rectifier: ModelLineRectifier(), recognizer: recognizer,
            minimumConfidence: 0.5, turnCheck: SidewaysSecondChance(), checksPolarity: false, strokeLooks: strokeLooks)
        var configuration = DisplayReader.Configuration()
        configuration.standsPhotosUpright = false
        let numeric = try #require(try PeripheralCatalog.builtIn()[100])
        return DisplayReader(peripheral: numeric, stages: stages, configuration: configuration)
    }

    @Test func aThresholdedCropIsReadWithItsHolesFilledWhereTwoLooksAgree() throws {
        var reader = try reader()
        let result = try reader.read(image: Self.holed(ink: 255, background: 0))
        #expect(result.reading?.readingString == "67", "\(result.message ?? "")")
        #expect(result.warnings.contains { $0.hasPrefix("read with its strokes' holes filled") }, "\(result.warnings)")
    }

    @Test func theTextTheFirstLookDoubtedReadSurerSettlesNothing() throws {
        var reader = try reader(recognizer: ByHoles(unsure: "67", sure: "67"))
        let result = try reader.read(image: Self.holed(ink: 255, background: 0))
        #expect(result.reading?.readingString == nil)
        #expect(result.message?.contains("unclear (67)") == true, "\(result.message ?? "")")
    }

    @Test func oneLookAloneIsNotTaken() throws {
        var reader = try reader(strokeLooks: [StrokeLook(radiusPerDigitHeight: 1.0 / 40)])
        #expect(try reader.read(image: Self.holed(ink: 255, background: 0)).reading?.readingString == nil)
    }

    @Test func aGreyPhotoIsNotFilled() throws {
        var reader = try reader()
        let result = try reader.read(image: Self.holed(ink: 190, background: 70))
        #expect(result.reading?.readingString == nil)
        #expect(result.message?.contains("unclear (57)") == true, "\(result.message ?? "")")
    }
}
