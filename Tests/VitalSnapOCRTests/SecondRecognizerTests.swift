import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A photo refused because the first recognizer was unsure of a value, or found too few values, is read again
/// with the second recognizer, and that reading is taken only where it is the text the first one read (all but
/// the one value missing). Checked through the reader itself,
/// with stand-in stages: one line (`ViewAgreementTests.OneLine`), cut by the trained reader's rectifier and read
/// `120` or another text, as sure as asked.
struct SecondRecognizerTests {
    /// Reads `text` sure of each character and of the line as a whole by `lineConfidence`; its characters lie
    /// side by side in the crop, so the reader places the line in the image.
    struct Stub: CharacterRecognizer {
        var text = "120"
        var lineConfidence = 1.0
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let characters = text.enumerated().map { k, c in
                RecognizedCharacter(
                    character: c, confidence: 0.95, segments: [], box: PixelRect(x: 8 + 14 * k, y: 6, width: 12, height: 20))
            }
            var read = LineTranscript(characters: characters, contrast: 100, hasGap: false)
            read.lineConfidence = lineConfidence
            return read
        }
    }

    /// A reader of `peripheral` whose first recognizer reads `120` sure at `firstSure` only, with `second` as its
    /// second recognizer (threshold 0.5 for both).
    func reader(
        firstSure: Double, second: Stub?, asksSecondOpinion: Bool = true, peripheral: Int = 9, unit: String? = "mg/dL"
    ) throws -> DisplayReader {
        try reader(
            first: Stub(lineConfidence: firstSure), second: second, asksSecondOpinion: asksSecondOpinion,
            peripheral: peripheral, unit: unit)
    }

    /// A reader of `peripheral` that finds one line (`line`, or one from x 40 to 160) and reads it with `first`, then, where the photo is refused,
    /// with `second` (threshold 0.5 for both, the same `views` for both).
    func reader(
        first: any CharacterRecognizer, second: (any CharacterRecognizer)?, views: [LineView] = [],
        asksSecondOpinion: Bool = true, peripheral: Int = 9, unit: String? = "mg/dL", line: TextLine? = nil
    ) throws -> DisplayReader {
        let line = line ?? TextLine(candidates: [], polarity: .dark, centerX: 100, centerY: 50, angle: 0, length: 120,
                                    digitHeight: 40, candidatesAreCharacters: false, role: .value)
        let stages = ReaderStages(
            locator: ViewAgreementTests.OneLine(line: line), rectifier: ModelLineRectifier(),
            recognizer: first, minimumConfidence: 0.5, views: views,
            turnCheck: SidewaysSecondChance(), checksPolarity: false,
            secondRecognition: second.map { ReaderStages.Recognition(recognizer: $0, minimumConfidence: 0.5, views: views) })
        var configuration = DisplayReader.Configuration()
        configuration.asksSecondOpinion = asksSecondOpinion
        configuration.standsPhotosUpright = false
        let definition = try #require(try PeripheralCatalog.builtIn()[peripheral])
        return DisplayReader(peripheral: definition, unit: unit, stages: stages, configuration: configuration)
    }

    let image = GrayImage(width: 200, height: 100, fill: 128)
    /// A second recognizer sure of `120`.
    let sureOf120 = Stub(lineConfidence: 0.9)

    @Test func aValueTheFirstDoubtsIsTakenWhereTheSecondIsSureOfTheSameText() throws {
        var alone = try reader(firstSure: 0.3, second: nil)
        let refused = try alone.read(image: image)
        #expect(refused.reading?.readingString == nil)
        #expect(refused.message?.contains("unclear (120)") == true)

        var agreeing = try reader(firstSure: 0.3, second: sureOf120)
        let result = try agreeing.read(image: image)
        #expect(result.reading?.readingString == "120")
        #expect(result.warnings.contains { $0.hasPrefix("read by the second recognizer") })
    }

    @Test func aSecondRecognizerThatReadsAnotherTextIsNotTaken() throws {
        var other = try reader(firstSure: 0.3, second: Stub(text: "121", lineConfidence: 0.9))
        let result = try other.read(image: image)
        #expect(result.reading?.readingString == nil)
        #expect(result.message?.contains("unclear (120)") == true, "the first reading's reason stands")
    }

    @Test func aSecondRecognizerAsUnsureIsNotTaken() throws {
        var unsure = try reader(firstSure: 0.3, second: Stub(lineConfidence: 0.3))
        #expect(try unsure.read(image: image).reading?.readingString == nil)
    }

    @Test func aReadingTheFirstIsSureOfIsNotReadAgain() throws {
        // The second agrees: asked, its reading would be taken and say so; not asked, the first's stands alone.
        var sure = try reader(firstSure: 0.9, second: sureOf120)
        let result = try sure.read(image: image)
        #expect(result.reading?.readingString == "120", "\(result.message ?? "")")
        #expect(result.warnings.isEmpty)
    }

    /// Counts the lines it is asked to read (shared by the copies of a stub).
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var total: Int { lock.withLock { count } }
    }

    /// `Stub` that counts its calls.
    struct Counting: CharacterRecognizer {
        var stub: Stub
        let calls: Calls
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            calls.add()
            return stub.recognize(line)
        }
    }

    @Test func aRefusalOverUnclearDigitsOrAMissingValueIsReadAgain() throws {
        // One unsure line: a glucose meter's value is refused for its unclear digits and read again, and the
        // second's reading taken; a blood pressure monitor's is refused for the two values missing and read again
        // too, but the second recognizer finds no more lines than the first, so the refusal stands.
        for (peripheral, unit) in [(9, "mg/dL"), (2, nil)] {
            let calls = Calls()
            var twoRecognizers = try reader(
                first: Stub(lineConfidence: 0.3), second: Counting(stub: sureOf120, calls: calls), peripheral: peripheral,
                unit: unit)
            let result = try twoRecognizers.read(image: image)
            #expect(calls.total > 0, "peripheral \(peripheral): \(result.message ?? "")")
            if peripheral == 9 {
                #expect(result.reading?.readingString == "120", "\(result.message ?? "")")
            } else {
                #expect(result.reading?.refusal?.reason == .valuesMissing, "\(result.message ?? "")")
            }
        }
    }

    /// Finds three stacked lines, a BP monitor's rows, 35 px apart.
    struct ThreeRows: LineLocator {
        func locate(in frame: WorkingFrame) -> [TextLine] {
            [(30.0, 24.0), (65, 20), (100, 16)].map { y, height in
                TextLine(candidates: [], polarity: .dark, centerX: 100, centerY: y, angle: 0, length: 90,
                         digitHeight: height, candidatesAreCharacters: false, role: .value)
            }
        }
    }

    /// Reads each of `ThreeRows`' rows as its text in `texts`, top to bottom (told apart by where the crop lies in
    /// the frame), sure of it but for the row `unsure`.
    struct ByRow: CharacterRecognizer {
        var texts: [String]
        var unsure: Int?
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let y = line.toFrame.apply(Double(line.image.width) / 2, Double(line.image.height) / 2).y
            let row = y < 47 ? 0 : y < 82 ? 1 : 2
            var stub = Stub(text: texts[row], lineConfidence: row == unsure ? 0.3 : 0.9)
            return stub.recognize(line)
        }
    }

    /// Finds `ThreeRows`' rows only in a frame less wide for its height than the upright test image (200 x 130,
    /// 1.54; tilted by 15 degrees, about 227 x 177, 1.28): in a tilted look.
    struct RowsWhenTilted: LineLocator {
        func locate(in frame: WorkingFrame) -> [TextLine] {
            Double(frame.working.width) < 1.45 * Double(frame.working.height) ? ThreeRows().locate(in: frame) : []
        }
    }

    @Test func inATiltedLookTheSecondIsAskedForAMissingValueOnly() throws {
        // Nothing found upright; tilted by 15 degrees, the three rows.
        let image = GrayImage(width: 200, height: 130, fill: 128)
        func tilted(first: ByRow, second: ByRow) throws -> PhotoResult {
            var stages = ReaderStages(
                locator: RowsWhenTilted(), rectifier: ModelLineRectifier(), recognizer: first,
                minimumConfidence: 0.5, turnCheck: SidewaysSecondChance(), checksPolarity: false,
                secondRecognition: ReaderStages.Recognition(recognizer: second, minimumConfidence: 0.5))
            stages.tiltedLooks = [15 * Double.pi / 180]
            var configuration = DisplayReader.Configuration()
            configuration.standsPhotosUpright = false
            let monitor = try #require(try PeripheralCatalog.builtIn()[2])
            var reader = DisplayReader(peripheral: monitor, stages: stages, configuration: configuration)
            return try reader.read(image: image)
        }
        // The first reads the pulse row as one digit there; the second reads it, agreeing on the other two.
        let found = try tilted(first: ByRow(texts: ["120", "80", "7"]), second: ByRow(texts: ["120", "80", "72"]))
        #expect(found.reading?.readingString == "120/80/72", "\(found.message ?? "")")
        #expect(found.warnings.contains { $0.hasPrefix("read by the second recognizer, which found the value") })
        #expect(found.warnings.contains { $0.hasPrefix("read tilted by 15 degrees") })
        // There the first may have found one row only: the second's values are taken though two are its alone
        // (read as the photo stands, `aValueTheFirstCouldNotReadIsTakenWhereTheSecondAgreesOnTheOthers`, not).
        let oneRow = try tilted(first: ByRow(texts: ["120", "7", "7"]), second: ByRow(texts: ["120", "80", "72"]))
        #expect(oneRow.reading?.readingString == "120/80/72", "\(oneRow.message ?? "")")
        #expect(oneRow.warnings.contains { $0.hasPrefix("read by the second recognizer, which found the values") })
        // The first reads all three there, unsure of the pulse: the second, which would agree, is not asked in a
        // tilted look (measured: such agreements read wrong there), and the photo stays refused.
        let unsure = try tilted(
            first: ByRow(texts: ["120", "80", "72"], unsure: 2), second: ByRow(texts: ["120", "80", "72"]))
        #expect(unsure.reading?.readingString == nil)
        #expect(unsure.reading?.refusal?.reason == .noDigits, "the first reading's reason stands: \(unsure.message ?? "")")
    }

    @Test func aValueTheFirstCouldNotReadIsTakenWhereTheSecondAgreesOnTheOthers() throws {
        let image = GrayImage(width: 200, height: 130, fill: 128)
        func bloodPressure(first: [String], second: [String]) throws -> PhotoResult {
            let stages = ReaderStages(
                locator: ThreeRows(), rectifier: ModelLineRectifier(), recognizer: ByRow(texts: first),
                minimumConfidence: 0.5, turnCheck: SidewaysSecondChance(), checksPolarity: false,
                secondRecognition: ReaderStages.Recognition(recognizer: ByRow(texts: second), minimumConfidence: 0.5))
            var configuration = DisplayReader.Configuration()
            configuration.standsPhotosUpright = false
            let monitor = try #require(try PeripheralCatalog.builtIn()[2])
            var reader = DisplayReader(peripheral: monitor, stages: stages, configuration: configuration)
            return try reader.read(image: image)
        }
        // The first reads the pulse row as one digit, not a number: two values of three.
        let alone = try bloodPressure(first: ["120", "80", "7"], second: ["120", "80", "7"])
        #expect(alone.reading?.refusal?.reason == .valuesMissing, "\(alone.message ?? "")")
        // The second reads the pulse and agrees on the other two: taken, and said so.
        let found = try bloodPressure(first: ["120", "80", "7"], second: ["120", "80", "72"])
        #expect(found.reading?.readingString == "120/80/72", "\(found.message ?? "")")
        #expect(found.warnings.contains { $0.hasPrefix("read by the second recognizer, which found the value") })
        // Where it reads one of the others otherwise too, two values are its word alone: not taken.
        let other = try bloodPressure(first: ["120", "80", "7"], second: ["120", "86", "72"])
        #expect(other.reading?.readingString == nil)
        #expect(other.reading?.refusal?.reason == .valuesMissing, "\(other.message ?? "")")
    }

    @Test func framesOfACameraAreNotReadAgain() throws {
        var live = try reader(firstSure: 0.3, second: sureOf120, asksSecondOpinion: false)
        #expect(try live.read(image: image).reading?.readingString == nil)
    }

    /// Reads `120` in the first crop it is shown, sure of it by `lineConfidence`, and `viewText` in every crop
    /// after (the views of the same line; nil: `120` there too).
    struct FirstThenViews: CharacterRecognizer {
        var stub: Stub
        var viewText: String?
        var calls = 0
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            calls += 1
            var read = stub
            if calls > 1, let viewText { read.text = viewText }
            return read.recognize(line)
        }
    }

    /// A reader of `peripheral` with one view, whose first recognizer reads `text` sure of it alone by
    /// `firstSure` and `128` in the view where `viewsMisread`; its second recognizer reads `text` sure everywhere.
    func readerWithViews(
        firstSure: Double, viewsMisread: Bool, peripheral: Int, unit: String?, text: String = "120"
    ) throws -> DisplayReader {
        try reader(
            first: FirstThenViews(stub: Stub(text: text, lineConfidence: firstSure), viewText: viewsMisread ? "128" : nil),
            second: Stub(text: text, lineConfidence: 0.9), views: [LineView(heightScale: 1.12)], peripheral: peripheral, unit: unit)
    }

    @Test func aNumericDisplaysValueWithALeadingZeroIsNotReadAgainWhereItsViewsDisagreed() throws {
        // Unsure alone, the view reading the same: the second recognizer's agreeing reading is taken.
        var unsure = try readerWithViews(firstSure: 0.3, viewsMisread: false, peripheral: 100, unit: nil)
        #expect(try unsure.read(image: image).reading?.readingString == "120")
        var unsureZero = try readerWithViews(firstSure: 0.3, viewsMisread: false, peripheral: 100, unit: nil, text: "08.01")
        #expect(try unsureZero.read(image: image).reading?.readingString == "08.01")
        // Sure alone, the view reading another text: taken where the second agrees...
        var doubted = try readerWithViews(firstSure: 0.9, viewsMisread: true, peripheral: 100, unit: nil)
        #expect(try doubted.read(image: image).reading?.readingString == "120")
        // ...but not with a leading zero, where a leading digit under the bezel leaves one: a numeric display has
        // no plausible range to catch a wrong text two recognizers agree on, so the refusal stands.
        var hidden = try readerWithViews(firstSure: 0.9, viewsMisread: true, peripheral: 100, unit: nil, text: "08.01")
        let refused = try hidden.read(image: image)
        #expect(refused.reading?.readingString == nil)
        #expect(refused.reading?.refusal?.reason == .unclearDigits, "\(refused.message ?? "")")
        // A glucose meter's value has a plausible range: there the second recognizer may overrule the views.
        var glucose = try readerWithViews(firstSure: 0.9, viewsMisread: true, peripheral: 9, unit: "mg/dL")
        #expect(try glucose.read(image: image).reading?.readingString == "120")
    }

    @Test func aLeadingZeroIsAZeroBeforeAnotherDigit() {
        #expect(SecondRecognitionTerms.hasLeadingZero("08.01"))
        #expect(SecondRecognitionTerms.hasLeadingZero("000628"))
        #expect(SecondRecognitionTerms.hasLeadingZero("-05"))
        #expect(!SecondRecognitionTerms.hasLeadingZero("0.5"))
        #expect(!SecondRecognitionTerms.hasLeadingZero("0"))
        #expect(!SecondRecognitionTerms.hasLeadingZero("108.01"))
    }
}
