import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A photo of a measuring device that the stages refuse after every other look is read once more with its
/// contrast evened out (`ReaderStages.contrastLooks`, `ContrastEqualizer`): a dim row on a dim panel. Checked
/// through the reader itself with stand-in stages: one line (`ViewAgreementTests.OneLine`), cut by the trained
/// reader's rectifier, read by a recognizer that sees digits only where the crop's grey levels spread wide.
struct ContrastLookTests {
    /// Reads `wide` (`120`) sure where the middle of the crop spreads over at least 60 grey levels (5th to 95th
    /// percentile); in a flatter crop, `dim` as unsure, or nothing where `dim` is nil.
    struct SeesContrast: CharacterRecognizer {
        var dim: String?
        var wide = "120"
        /// The probability it gives the text with a `1` before it, in a flat crop and in a wide one.
        var leadingOne = (dim: 0.0, wide: 0.0)
        /// Its confidence in `dim` as a whole (below the threshold, 0.5, but where a test says otherwise).
        var dimConfidence = 0.3

        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let image = line.image
            let middle = PixelRect(x: image.width / 4, y: image.height / 3, width: image.width / 2, height: image.height / 3)
            let histogram = Histogram(image, in: middle)
            let wide = histogram.percentile(0.95) - histogram.percentile(0.05) >= 60
            guard let text = wide ? self.wide : dim else { return LineTranscript(characters: [], contrast: 0, hasGap: false) }
            let characters = text.enumerated().map { k, c in
                RecognizedCharacter(character: c, confidence: 0.95, segments: [], box: PixelRect(x: 8 + 14 * k, y: 6, width: 12, height: 20))
            }
            var read = LineTranscript(characters: characters, contrast: 100, hasGap: false)
            read.lineConfidence = wide ? 0.9 : dimConfidence
            read.leadingOneProbability = wide ? leadingOne.wide : leadingOne.dim
            return read
        }
    }

    /// A reader of `peripheral` whose one line is read by `SeesContrast(dim:)`, threshold 0.5, with the
    /// contrast looks `looks`.
    func reader(
        dim: String? = nil, wide: String = "120", leadingOne: (dim: Double, wide: Double) = (0, 0), dimConfidence: Double = 0.3,
        looks: [Double] = ReaderStages.contrastLookClipLimits, peripheral: Int = 9, photo: Bool = true
    ) throws -> DisplayReader {
        let line = TextLine(candidates: [], polarity: .dark, centerX: 100, centerY: 50, angle: 0, length: 120,
                            digitHeight: 40, candidatesAreCharacters: false, role: .value)
        let stages = ReaderStages(
            locator: ViewAgreementTests.OneLine(line: line), rectifier: ModelLineRectifier(),
            recognizer: SeesContrast(dim: dim, wide: wide, leadingOne: leadingOne, dimConfidence: dimConfidence), minimumConfidence: 0.5,
            turnCheck: SidewaysSecondChance(), checksPolarity: false, contrastLooks: looks)
        return try DisplayReader.standIn(stages: stages, peripheral: peripheral, photo: photo)
    }

    /// A dim panel: grey levels 15 to 45 all over, in a fixed pattern.
    let dimPanel = GrayImage(width: 200, height: 100, pixels: (0..<(200 * 100)).map { UInt8(15 + ($0 * 7919) % 31) })
    /// The same panel as a whole photo, four times as large, larger than a crop of a display
    /// (`WorkingFrame.isDisplayCrop`).
    var dimPhoto: GrayImage {
        GrayImage(width: 800, height: 400, pixels: (0..<(800 * 400)).map { dimPanel.pixels[($0 / 800 / 4) * 200 + ($0 % 800) / 4] })
    }

    @Test func aDimDisplayRefusedAsItIsIsReadWithItsContrastEvenedOut() throws {
        var plain = try reader(looks: [])
        let refused = try plain.read(image: dimPanel)
        #expect(refused.reading?.readingString == nil)
        let reason = try #require(refused.message)

        var evening = try reader()
        let result = try evening.read(image: dimPanel)
        #expect(result.reading?.readingString == "120")
        let warning = try #require(result.warnings.first { $0.hasPrefix("read with its contrast evened out") })
        #expect(warning.contains(reason), "the warning gives the first reading's reason: \(warning)")
    }

    @Test func aCameraFrameIsNotEvenedOut() throws {
        var live = try reader(photo: false)
        #expect(try live.read(image: dimPanel).reading?.readingString == nil, "a camera's frames are read once")
    }

    /// A plain numeric display (100) with its numeric looks (a tilt), whose evened-out reading is taken on
    /// `NumericLookTerms`' terms: borne out by what the first look saw, or by another look.
    func numericReader(dim: String?, looks: [Double] = ReaderStages.contrastLookClipLimits) throws -> DisplayReader {
        var numeric = try reader(dim: dim, looks: looks, peripheral: 100)
        numeric.stages.numericTiltedLooks = [0.26]
        return DisplayReader(peripheral: try #require(try PeripheralCatalog.builtIn()[100]), stages: numeric.stages, configuration: numeric.configuration)
    }

    @Test func aNumericDisplayIsEvenedOutOnItsTerms() throws {
        // The first look saw `12.0`, unsure: `120` evened out is its digits, read sure.
        var seen = try numericReader(dim: "12.0")
        let result = try seen.read(image: dimPhoto)
        #expect(result.reading?.readingString == "120", "\(result.message ?? "")")
        #expect(result.warnings.contains { $0.hasPrefix("read with its contrast evened out") })
        // The first look saw other digits: an evened-out reading that nothing bears out is not taken (a plain
        // number has no range to catch it), where another peripheral's value is.
        var other = try numericReader(dim: "128", looks: [4])
        #expect(try other.read(image: dimPhoto).reading?.readingString == nil)
        var glucose = try reader(dim: "128", looks: [4])
        #expect(try glucose.read(image: dimPhoto).reading?.readingString == "120")
    }

    @Test func aCropOfANumericDisplaysLineIsNotEvenedOut() throws {
        // The dim panel as a crop of its line: read `12.0` unsure, and not again evened out (as a photo, it is).
        #expect(!WorkingFrame.isDisplayCrop(dimPhoto) && WorkingFrame.isDisplayCrop(dimPanel))
        var numeric = try numericReader(dim: "12.0")
        let result = try numeric.read(image: dimPanel)
        #expect(result.reading?.readingString == nil)
        #expect(!result.warnings.contains { $0.hasPrefix("read with its contrast evened out") })
        let refused = PhotoResult(file: "", reading: Reading(outcome: .none(Refusal(.noDigits, "no digits found")), confidence: 0, recognizedText: "", lines: []))
        #expect(ContrastLook.mayAsk(after: refused, plainNumberCrop: false))
        #expect(!ContrastLook.mayAsk(after: refused, plainNumberCrop: true))
    }

    @Test func theTextTheFirstReadingDoubtedIsNotTakenFromTheEvenedOutLook() throws {
        // Unsure of 120 as it is, sure of 120 evened out: the same pixels brighter settle nothing.
        var doubted = try reader(dim: "120")
        let refused = try doubted.read(image: dimPanel)
        #expect(refused.reading?.readingString == nil)
        #expect(refused.message?.contains("unclear (120)") == true, "the first reading's reason stands")
        // Unsure of another text as it is: the evened-out look found what the first could not read.
        var other = try reader(dim: "128")
        #expect(try other.read(image: dimPanel).reading?.readingString == "120")
    }

    @Test func aPhotoWhoseDateWasReadIsNotEvenedOut() throws {
        // A line read as a date (`12-05`) shows which way up the display is and that it shows no value in it:
        // not read again (ReaderStages.mayReadTurned).
        var dated = try reader(dim: "12-05")
        let result = try dated.read(image: dimPanel)
        #expect(result.reading?.readingString == nil)
        #expect(!result.warnings.contains { $0.hasPrefix("read with its contrast evened out") })
    }

    @Test func ghostSegmentsBroughtUpAsAllEightsAreNotTaken() throws {
        // Evened out, an LCD's unlit segments show: every digit an 8.
        var ghosts = try reader(wide: "88")
        let result = try ghosts.read(image: dimPanel)
        #expect(result.reading?.readingString == nil)
        #expect(result.message == "no digits found", "the first reading's reason stands")
        var eighty = try reader(wide: "180")
        #expect(try eighty.read(image: dimPanel).reading?.readingString == "180", "an 8 among other digits is a digit")
    }

    @Test func aValueDoubtedForALeadingOneIsNotTakenFromALaterLook() throws {
        // A scale (5): `43.1` read sure as it is but maybe missing a thin leading 1 (`Refusal.lacksLeadingOne`),
        // then read `43.1` evened out with no such doubt. Reading the same digits again does not show the 1.
        var doubted = try reader(dim: "43.1", wide: "43.1", leadingOne: (0.3, 0), dimConfidence: 0.9, peripheral: 5)
        let result = try doubted.read(image: dimPanel)
        #expect(result.reading?.readingString == nil)
        #expect(result.reading?.refusal?.lacksLeadingOne == "43.1")
        #expect(result.message?.contains("(43.1, or 143.1)") == true, "the first reading's reason stands: \(result.message ?? "")")
        // Nor with the 1: evened out, the ghost of an LCD's unlit leading digit shows a 1's two strokes.
        var ghost = try reader(dim: "43.1", wide: "143.1", leadingOne: (0.3, 0), dimConfidence: 0.9, peripheral: 5)
        #expect(try ghost.read(image: dimPanel).reading?.readingString == nil)
        // Other digits evened out are what the first could not read.
        var other = try reader(dim: "43.1", wide: "48.1", leadingOne: (0.3, 0), dimConfidence: 0.9, peripheral: 5)
        #expect(try other.read(image: dimPanel).reading?.readingString == "48.1")
    }
}
