import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

/// `RuleCharacterRecognizer` on rectified lines drawn by hand: digits 32 px tall from row 10 of a 52 px image, cells
/// 18 px wide at a 24 px pitch, LCD segments 4 px thick with 1 px between them, dark (40) on light (200).
final class RuleCharacterRecognizerTests: XCTestCase {
    let font = SegmentText()
    /// Left edge of the first cell in the image.
    let left = 20
    let top = 10

    /// A rectified line showing `text`. `ghost`: text drawn first at `background - 15` (unlit LCD segments).
    /// `spans`: the candidates' column extents as detection would give them (one per character), or none.
    func line(
        _ text: String, custom: [Character: String] = [:], background: UInt8 = 200, ink: UInt8 = 40,
        ghost: String? = nil, spans: Bool = true, font: SegmentText? = nil
    ) -> RectifiedLine {
        let font = font ?? self.font
        let cells = text.filter { $0 != "." }.count
        let image = Frames.render(
            text, as: font, width: 2 * left + max(1, cells) * Int(font.pitch), height: top + Int(font.height) + 10,
            placement: Placement(x: Double(left), y: Double(top)), background: background, ink: ink, custom: custom,
            ghost: ghost, ghostLevel: background - 15)
        var line = RectifiedLine()
        line.image = image
        line.digitTop = top
        line.digitHeight = Int(font.height)
        if spans {
            line.candidateSpans = font.characterBoxes(text, custom: custom).map { b in
                (left + Int(b.x0.rounded(.down)))...(left + Int(b.x1.rounded(.up)) - 1)
            }
        }
        return line
    }

    func read(_ line: RectifiedLine, configuration: RuleCharacterRecognizer.Configuration = .init()) -> LineTranscript {
        var recognizer = RuleCharacterRecognizer(configuration: configuration)
        return recognizer.recognize(line)
    }

    func text(_ result: LineTranscript) -> String { String(result.characters.map(\.character)) }

    // MARK: - Digits

    func testEveryDigitAloneIsRead() {
        for digit in "0123456789" {
            let result = read(line(String(digit)))
            XCTAssertEqual(text(result), String(digit))
            XCTAssertEqual(result.characters.first?.confidence ?? 0, 1, accuracy: 1e-9, "digit \(digit)")
            XCTAssertFalse(result.hasGap, "digit \(digit)")
        }
    }

    func testAllTenDigitsInOneLine() {
        let result = read(line("0123456789"))
        XCTAssertEqual(text(result), "0123456789")
        XCTAssertFalse(result.hasGap)
        XCTAssertEqual(result.characters.map(\.segments), "0123456789".map { SegmentSet(SegmentText.patterns[$0]!) })
    }

    func testNumbers() {
        for number in ["123", "907", "111", "4096", "58", "71"] {
            let result = read(line(number))
            XCTAssertEqual(text(result), number)
            XCTAssertFalse(result.hasGap, number)
            XCTAssertTrue(result.characters.allSatisfy { $0.confidence >= 0.5 }, number)
        }
    }

    func testDigitVariantsMetersDraw() {
        // A 6 without its top bar, a 7 with f; a 9 without its bottom bar is not read on purpose (a 4 with a
        // stray segment).
        let result = read(line("XYZ", custom: ["X": "cdefg", "Y": "abcf", "Z": "abcfg"]))
        XCTAssertEqual(text(result), "67?")
        XCTAssertEqual(result.characters.map(\.segments), [SegmentSet("cdefg"), SegmentSet("abcf"), SegmentSet("abcfg")])
    }

    func testOneRecognizerReadsLineAfterLine() {
        // Buffers are reused between lines; nothing of one line may leak into the next.
        var recognizer = RuleCharacterRecognizer()
        XCTAssertEqual(text(recognizer.recognize(line("8888888"))), "8888888")
        XCTAssertEqual(text(recognizer.recognize(line("1"))), "1")
        XCTAssertEqual(text(recognizer.recognize(line("   "))), "")
        XCTAssertEqual(text(recognizer.recognize(line("47"))), "47")
        XCTAssertEqual(recognizer.mask.width, 2 * left + 2 * 24)
    }

    func testTheLineIsReadTheSameWithoutCandidateSpans() {
        // A line proposed by the row profile has no candidates to go by.
        for number in ["123", "907", "111"] {
            XCTAssertEqual(text(read(line(number, spans: false))), number)
        }
    }

    func testCharacterBoxesAreTheDrawnInk() {
        let result = read(line("183"))
        XCTAssertEqual(result.characters.count, 3)
        guard result.characters.count == 3 else { return }
        // The 1 is its right-hand strokes only, at the right of its cell; every cell ends at the same place.
        XCTAssertEqual(result.characters.map(\.box.maxX), [left + 18, left + 24 + 18, left + 48 + 18])
        XCTAssertEqual(result.characters[0].box.minX, left + 14)
        XCTAssertEqual(result.characters[1].box.minX, left + 24)
        // The 8 spans the digit band.
        XCTAssertEqual(result.characters[1].box.minY, top)
        XCTAssertEqual(result.characters[1].box.maxY, top + 32)
        XCTAssertTrue(result.characters.allSatisfy(\.isAligned))
        // The band holds background 200 and ink 40 (and the blends of their edges).
        XCTAssertEqual(result.contrast, 160)
    }

    // MARK: - Decimal point, minus, letters

    func testADecimalPointOnTheBaselineBetweenTwoDigits() {
        let result = read(line("12.5"))
        XCTAssertEqual(text(result), "12.5")
        XCTAssertFalse(result.hasGap)
        guard result.characters.count == 4 else { return }
        let dot = result.characters[2]
        XCTAssertEqual(dot.character, ".")
        // Between the 2 and the 5, on the baseline.
        XCTAssertGreaterThanOrEqual(dot.box.minX, result.characters[1].box.maxX)
        XCTAssertLessThanOrEqual(dot.box.maxX, result.characters[3].box.minX)
        XCTAssertEqual(dot.box.maxY, top + 32)
        // Without the dot the same digits read as a whole number.
        XCTAssertEqual(text(read(line("125"))), "125")
    }

    /// Binarized photos carry specks of noise; on the baseline between two digits they are no decimal point
    /// (a BP field of 142 read as 1.42): a printed point is about a stroke wide and solid.
    func testSpecksOnTheBaselineBetweenDigitsAreNoDecimalPoint() {
        // Two touching pixels, a 2x2 box half filled.
        let pair = painting(line("95"), [(x: 20, y: 30, width: 1, height: 1), (x: 21, y: 31, width: 1, height: 1)])
        XCTAssertEqual(text(read(pair)), "95")
        // Three pixels scattered over a stroke-wide square.
        let scattered = painting(line("95"), [(x: 19, y: 31, width: 1, height: 1), (x: 21, y: 29, width: 1, height: 1), (x: 22, y: 31, width: 1, height: 1)])
        XCTAssertEqual(text(read(scattered)), "95")
        // A solid point of a stroke's size there is one.
        XCTAssertEqual(text(read(painting(line("95"), [(x: 19, y: 28, width: 4, height: 4)]))), "9.5")
    }

    func testLeadingMinusAndTheLettersOfDisplayWords() {
        XCTAssertEqual(text(read(line("-12"))), "-12")
        XCTAssertEqual(text(read(line("L0"))), "L0")
        XCTAssertEqual(text(read(line("H1"))), "H1")
        XCTAssertEqual(text(read(line("E"))), "E")
    }

    // MARK: - Ghosts and contrast

    func testGhostSegmentsOfUnlitLCDPositionsDoNotLightUp() {
        // An 8-shaped ghost behind every digit: the lit segments alone decide.
        XCTAssertEqual(text(read(line("4", ghost: "8"))), "4")
        XCTAssertEqual(text(read(line("147", ghost: "888"))), "147")
        XCTAssertEqual(text(read(line("7", ghost: "8"))), "7")
        XCTAssertEqual(text(read(line("10", ghost: "88"))), "10")
    }

    func testALowContrastLineIsStillRead() {
        // Segments 160 on 200: a faint LCD. Drawn with half-pixel gaps between segments: with one-pixel gaps
        // this faint, the reader splits every digit into its stroke columns (see the report), which is left
        // out here.
        var narrowGaps = font
        narrowGaps.gap = 0.5
        let result = read(line("907", background: 200, ink: 160, font: narrowGaps))
        XCTAssertEqual(text(result), "907")
        XCTAssertEqual(result.contrast, 40)
        XCTAssertEqual(text(read(line("123", background: 200, ink: 160, font: narrowGaps))), "123")
        XCTAssertEqual(text(read(line("8", background: 200, ink: 160, font: narrowGaps))), "8")
        // Somewhat faint with the usual gaps: 150 on 200.
        XCTAssertEqual(text(read(line("907", background: 200, ink: 150))), "907")
        XCTAssertEqual(text(read(line("4", background: 200, ink: 150, ghost: "8"))), "4")
    }

    func testABlankLineHasNoCharacters() {
        let result = read(line("   "))
        XCTAssertTrue(result.characters.isEmpty)
        XCTAssertFalse(result.hasGap)
        XCTAssertEqual(result.contrast, 0)
    }

    // MARK: - Unreadable and missing characters

    func testADigitMissingASegmentThatMatchesNoCharacterIsUnreadable() {
        // An 8 without c (abdefg) is no character: reported as such, not guessed.
        let alone = read(line("X", custom: ["X": "abdefg"]))
        XCTAssertEqual(text(alone), "?")
        XCTAssertEqual(alone.characters.first?.confidence, 0)
        XCTAssertEqual(alone.characters.first?.segments, SegmentSet("abdefg"))

        let inside = read(line("1X3", custom: ["X": "abdefg"]))
        XCTAssertEqual(text(inside), "1?3")
        XCTAssertEqual(inside.characters.dropFirst().first?.confidence, 0)
    }

    /// `rects` (x from the left edge of the first cell, y from the digits' top) filled with `level`.
    func painting(_ line: RectifiedLine, _ rects: [(x: Int, y: Int, width: Int, height: Int)], level: UInt8 = 40) -> RectifiedLine {
        var out = line
        for r in rects {
            for y in (top + r.y)..<(top + r.y + r.height) {
                for x in (left + r.x)..<(left + r.x + r.width) { out.image[x, y] = level }
            }
        }
        return out
    }

    /// A number on a wider image, so the cell after it lies inside the line.
    func lineWithRoomAfter(_ text: String) -> RectifiedLine {
        var wide = line(text + "  ")
        wide.candidateSpans = Array(wide.candidateSpans.prefix(text.count))
        return wide
    }

    /// Ink in the cell after a number that was not read as a digit (here the lower half of a stroke, as a
    /// washed-out digit leaves) means the number may go on: a gap.
    func testABrokenStrokeInTheCellAfterTheNumberIsAGap() {
        XCTAssertFalse(read(lineWithRoomAfter("95")).hasGap)
        let broken = painting(lineWithRoomAfter("95"), [(x: 2 * 24 + 13, y: 14, width: 4, height: 17)])
        XCTAssertTrue(read(broken).hasGap, text(read(broken)))
    }

    /// A number whose line image begins right at its first digit: the cell before it was never looked at.
    /// Where the frame goes on beyond the image (a reflection hid the first digits from detection, 247 read
    /// as 47), the number may be longer; where the frame ends there too, there is nothing more to see.
    func testTheCellBeforeTheNumberBeyondTheLineImageIsAGapOnlyWhereTheFrameGoesOn() {
        var cut = line("95")
        let drop = 16
        var image = GrayImage(width: cut.image.width - drop, height: cut.image.height)
        for y in 0..<image.height { for x in 0..<image.width { image[x, y] = cut.image[x + drop, y] } }
        cut.image = image
        cut.candidateSpans = cut.candidateSpans.map { ($0.lowerBound - drop)...($0.upperBound - drop) }
        cut.toFrame = AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 200, ty: 100)
        cut.frameBounds = PixelRect(x: 0, y: 0, width: 640, height: 480)
        XCTAssertEqual(text(read(cut)), "95")
        XCTAssertTrue(read(cut).hasGap)
        cut.frameBounds = PixelRect(x: 200, y: 0, width: 440, height: 480)
        XCTAssertFalse(read(cut).hasGap)
    }

    /// A leading 1 whose stroke runs on past the band (into the edge of a cropped photo) is not read, but it
    /// is as tall as the digits right beside them: the number is doubtful rather than 24 for 124.
    func testABarAsTallAsTheDigitsRightBeforeThemMakesTheNumberDoubtful() {
        let plain = read(line("124", spans: false))
        XCTAssertEqual(text(plain), "124")
        XCTAssertFalse(plain.hasGap)
        let runOn = read(painting(line("124", spans: false), [(x: 14, y: -9, width: 4, height: 10)]))
        XCTAssertFalse(text(runOn).hasPrefix("1"), text(runOn))
        XCTAssertTrue(runOn.hasGap, text(runOn))
    }

    /// A unit symbol beside the top of the digits (°C) is no digit cut off, though its C is a good stroke.
    func testAUnitSymbolBesideTheTopOfTheDigitsIsNoGap() {
        let degree = [(x: 2 * 24 - 2, y: 0, width: 5, height: 2), (x: 2 * 24 - 2, y: 3, width: 5, height: 2)]
        let c = [(x: 2 * 24 + 5, y: 0, width: 9, height: 2), (x: 2 * 24 + 5, y: 0, width: 3, height: 15), (x: 2 * 24 + 5, y: 13, width: 9, height: 2)]
        let result = read(painting(lineWithRoomAfter("95"), degree + c))
        XCTAssertEqual(text(result), "95")
        XCTAssertFalse(result.hasGap)
    }

    /// A signal-strength gauge (a stack of bars) beside the number is no digit: a vertical line through it
    /// crosses more bars than a digit has.
    func testAStackOfBarsInTheCellAfterTheNumberIsNoGap() {
        // Five bars on a spine at their left: the spine is as tall as a digit's stroke.
        let bars = [(x: 2 * 24 + 3, y: 2, width: 3, height: 27)] + (0..<5).map { (x: 2 * 24 + 3, y: 2 + 6 * $0, width: 12, height: 3) }
        let result = read(painting(lineWithRoomAfter("95"), bars))
        XCTAssertEqual(text(result), "95")
        XCTAssertFalse(result.hasGap)
    }

    /// A bold font's 88 covers more than half its band, which otherwise marks light gaps read as strokes.
    func testABoldEightyEightIsNotTakenForTheWrongPolarity() {
        var bold = font
        bold.stroke = 6  // its two 8s cover 54% of their band
        let result = read(line("88", font: bold))
        XCTAssertEqual(text(result), "88")
        XCTAssertLessThan(result.noise, 0.08)
    }

    // MARK: - Configuration

    /// The segment threshold is the configuration's: the ghosts here are about a tenth as dark as the lit
    /// strokes, so with `onRatio` at 0.05 the unlit positions of a 4 light up and it reads as the 8 behind it.
    func testTheSegmentThresholdComesFromTheConfiguration() {
        let ghosted = line("4", ghost: "8")
        XCTAssertEqual(text(read(ghosted)), "4")
        var lax = RuleCharacterRecognizer.Configuration()
        lax.segments.onRatio = 0.05
        XCTAssertEqual(text(read(ghosted, configuration: lax)), "8")
    }

    /// How many bars make a gauge rather than a digit is the configuration's: the stack of five bars after the
    /// number is no digit by default, but where a gauge needs six it is ink of a digit in the next cell, a gap.
    func testTheGaugeBarCountComesFromTheConfiguration() {
        let bars = [(x: 2 * 24 + 3, y: 2, width: 3, height: 27)] + (0..<5).map { (x: 2 * 24 + 3, y: 2 + 6 * $0, width: 12, height: 3) }
        let gauge = painting(lineWithRoomAfter("95"), bars)
        XCTAssertFalse(read(gauge).hasGap)
        var moreBars = RuleCharacterRecognizer.Configuration()
        moreBars.nextCell.gaugeBars = 6
        let result = read(gauge, configuration: moreBars)
        XCTAssertEqual(text(result), "95")
        XCTAssertTrue(result.hasGap)
    }

    /// The static threshold the reader's stages and the assembler use is the default configuration's.
    func testTheMinimumReadingConfidenceIsTheDefaultConfigurations() {
        XCTAssertEqual(RuleCharacterRecognizer.minimumReadingConfidence, 0.35)
        XCTAssertEqual(RuleCharacterRecognizer.minimumReadingConfidence, RuleCharacterRecognizer.Configuration().minimumReadingConfidence)
    }

    func testADigitSizedBlankInsideTheNumberIsAGap() {
        XCTAssertFalse(read(line("1245")).hasGap)
        let gap = read(line("12 45"))
        XCTAssertEqual(text(gap), "1245")
        XCTAssertTrue(gap.hasGap)
        let leadingPair = read(line("12 5"))
        XCTAssertEqual(text(leadingPair), "125")
        XCTAssertTrue(leadingPair.hasGap)
    }
}
