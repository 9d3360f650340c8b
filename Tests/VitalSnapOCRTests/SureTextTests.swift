import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A value line read sure, in its views too, as a number its field cannot show holds the later looks to it: one
/// whose value agrees with none of its digits is not taken (`Refusal.readSureAs`). Which values agree, then the
/// same checked through the reader itself, with stand-in stages: the first locator finds a line on the photo's dark left half, the second
/// locator one on its light right half, and the recognizer reads a dark crop as one text and a light crop as
/// another, as sure of each in every view.
struct SureTextTests {
    @Test func aValueAgreesWhereItsDigitsHoldTheTextsOrAreHeldInThem() {
        #expect(SureText("197").agrees(with: "97"), "a mark before the value")
        #expect(SureText("984").agrees(with: "98"), "a mark after it")
        #expect(SureText("11").agrees(with: "114"), "a digit the sure look lost")
        #expect(SureText("58").agrees(with: "5.8"), "digits compared, not points")
        #expect(!SureText("197").agrees(with: "91"), "other digits")
        #expect(SureText("-18").agrees(with: "81"), "the line read turned over")
        #expect(!SureText("-17").agrees(with: "71"), "7 has no turned twin")
    }

    @Test func whereTheTextTurnedOverIsAValueOnlyThatCounts() {
        let upsideDown = SureText("801", plausibleTurnedOver: "108")
        #expect(upsideDown.agrees(with: "108"))
        #expect(!upsideDown.agrees(with: "80"), "the digits as read, less the last: read the wrong way up")
        #expect(SureText("801").agrees(with: "80"), "agrees where the turned text is no value")
    }

    /// Reads `dark` where the crop's mean is under mid-grey, else `light`.
    struct ByShade: CharacterRecognizer {
        var dark: String
        var light: String
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let pixels = line.image.pixels
            let mean = pixels.isEmpty ? 0 : pixels.reduce(0) { $0 + Int($1) } / pixels.count
            let text = mean < 128 ? dark : light
            let characters = text.enumerated().map { k, c in
                RecognizedCharacter(
                    character: c, confidence: 0.95, segments: [], box: PixelRect(x: 8 + 14 * k, y: 6, width: 12, height: 20))
            }
            var read = LineTranscript(characters: characters, contrast: 100, hasGap: false)
            read.lineConfidence = 0.9
            return read
        }
    }

    /// A line across the middle of the photo's half whose centre is `x` (the photo is read at its own size).
    static func line(at x: Double) -> TextLine {
        TextLine(candidates: [], polarity: .dark, centerX: x, centerY: 100, angle: 0, length: 120,
                 digitHeight: 30, candidatesAreCharacters: false, role: .value)
    }

    /// A glucose meter's reader (mg/dL) whose first look finds the left line and whose second locator the right
    /// one, both read by `recognizer`, checked in two views, or in none.
    func reader(_ recognizer: ByShade, views: [LineView] = [LineView(heightScale: 1.1), LineView(lengthScale: 1.1)]) throws -> DisplayReader {
        let stages = ReaderStages(
            locator: ViewAgreementTests.OneLine(line: Self.line(at: 100)), rectifier: ModelLineRectifier(),
            recognizer: recognizer, minimumConfidence: 0.5, views: views, turnCheck: SidewaysSecondChance(),
            checksPolarity: false, secondLocator: ViewAgreementTests.OneLine(line: Self.line(at: 300)))
        var configuration = DisplayReader.Configuration()
        configuration.standsPhotosUpright = false
        let definition = try #require(try PeripheralCatalog.builtIn()[9])
        return DisplayReader(peripheral: definition, unit: "mg/dL", stages: stages, configuration: configuration)
    }

    /// Dark on the left, light on the right.
    let image = GrayImage(width: 400, height: 200, pixels: (0..<200).flatMap { _ in (0..<400).map { $0 < 200 ? UInt8(40) : 220 } })

    @Test func aLaterValueOfOtherDigitsIsNotTaken() throws {
        var other = try reader(ByShade(dark: "701", light: "91"))
        let result = try other.read(image: image)
        #expect(result.reading?.readingString == nil)
        #expect(result.message?.contains("701 is outside the plausible range") == true, "\(result.message ?? "")")
    }

    @Test func aLaterValueAmongItsDigitsIsTaken() throws {
        // A mark after the value, one before it, a digit the sure look lost.
        for (dark, light) in [("701", "70"), ("9701", "97"), ("7", "117")] {
            var agreeing = try reader(ByShade(dark: dark, light: light))
            let result = try agreeing.read(image: image)
            #expect(result.reading?.readingString == light, "\(light): \(result.message ?? "")")
            #expect(result.warnings.contains { $0.hasPrefix("read from the second detector's lines") })
        }
    }

    @Test func aTextNotCheckedInViewsHoldsNothing() throws {
        var unchecked = try reader(ByShade(dark: "701", light: "91"), views: [])
        #expect(try unchecked.read(image: image).reading?.readingString == "91")
    }
}
