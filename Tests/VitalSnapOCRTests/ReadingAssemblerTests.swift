import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

final class ReadingAssemblerTests: XCTestCase {
    var catalog: PeripheralCatalog!

    override func setUpWithError() throws {
        catalog = try PeripheralCatalog.builtIn()
    }

    func assembler(_ id: Int, unit: String? = nil) throws -> ReadingAssembler {
        ReadingAssembler(peripheral: try XCTUnwrap(catalog[id]), unit: unit)
    }

    /// A recognized line showing `text`, with digits `height` px tall whose top-left is at (`x`, `top`).
    func line(
        _ text: String, height: Double = 40, top: Double = 100, x: Double = 50, confidence: Double = 0.9,
        hasGap: Bool = false, unclear: Set<Int> = []
    ) -> RecognizedLine {
        let cell = Int(0.75 * height)
        let characters = text.enumerated().map { i, c in
            RecognizedCharacter(
                character: c, confidence: unclear.contains(i) || c == "?" ? 0 : confidence, segments: [],
                box: PixelRect(x: 20 + i * cell, y: 10, width: cell, height: 32))
        }
        let width = Double(text.count * cell)
        return RecognizedLine(
            characters: characters, confidence: characters.map(\.confidence).min() ?? 0, digitHeight: height, polarity: .dark,
            corners: LineQuad(
                topLeft: Point(x: x, y: top), topRight: Point(x: x + width, y: top),
                bottomRight: Point(x: x + width, y: top + height), bottomLeft: Point(x: x, y: top + height)),
            contrast: 120, hasGap: hasGap)
    }

    func values(_ reading: Reading) -> [String] { reading.values.map(\.text) }

    func isNone(_ reading: Reading) -> Bool {
        if case .none = reading.outcome { return true }
        return false
    }

    /// A thin leading 1 the recognizer may have missed (`143.1` read `43.1`): where it gives the text with a 1
    /// before it `leadingOneDoubt` or more and that too is a plausible value, the value is in doubt; where the
    /// field cannot show the longer one (a glucose meter's `1324`) or the recognizer gives it less, it stands.
    func testAValueThatMayHaveLostALeadingOneIsUnclearWhereTheLongerOneIsPlausible() throws {
        var weight = line("43.1")
        weight.leadingOneProbability = 0.07
        let doubted = try assembler(5, unit: "kg").assemble([weight])
        XCTAssertTrue(isNone(doubted))
        XCTAssertEqual(doubted.refusal?.reason, .unclearDigits)
        XCTAssertTrue(doubted.refusal?.message.contains("(43.1, or 143.1)") ?? false, "\(doubted.outcome)")
        XCTAssertEqual(doubted.refusal?.lacksLeadingOne, "43.1", "the reader's later looks may not give it")
        var unsure = line("43.1")
        unsure.confidence = 0.1
        XCTAssertEqual(try assembler(5, unit: "kg").assemble([unsure]).refusal?.reason, .unclearDigits)
        XCTAssertNil(try assembler(5, unit: "kg").assemble([unsure]).refusal?.lacksLeadingOne, "unsure of its digits, not of a 1")
        weight.leadingOneProbability = 0.01
        XCTAssertEqual(try assembler(5, unit: "kg").assemble([weight]).readingString, "43.1")
        var glucose = line("324")
        glucose.leadingOneProbability = 0.3
        XCTAssertEqual(try assembler(9, unit: "mg/dL").assemble([glucose]).readingString, "324")
        // A plain numeric display has no range to tell the two apart: its values are not doubted so.
        var meter = line("43.1")
        meter.leadingOneProbability = 0.3
        XCTAssertEqual(try assembler(100).assemble([meter]).readingString, "43.1")
    }

    // MARK: - Choosing the line

    /// The value's digits read differently in another view of them (every confidence 0): the reading is in
    /// doubt, so there is none, and the smaller number below (a clock, a memory number) does not stand in for it.
    func testAValueReadDifferentlyInAnotherViewIsUnclearNotSkipped() throws {
        var value = line("161", height: 60, top: 20, unclear: [0, 1, 2])
        let below = line("12", height: 25, top: 300)
        var reading = try assembler(100).assemble([value, below])
        XCTAssertEqual(reading.readingString, "12", "without the flag a line of zero confidence is no number at all")
        value.viewsDisagree = true
        reading = try assembler(100).assemble([value, below])
        XCTAssertTrue(isNone(reading))
        XCTAssertEqual(reading.refusal?.reason, .unclearDigits)
        XCTAssertTrue(reading.refusal?.message.contains("unclear (161)") ?? false, "\(reading.outcome)")
    }

    /// Clear digits on a line the recognizer is unsure of as a whole (its best path's probability is low, as
    /// for a long line read right): still the value, refused as unclear below the reading threshold, and
    /// never replaced by the smaller number below it.
    func testClearDigitsOfAnUnsureLineAreTheValueStill() throws {
        var value = line("3939.3", height: 60, top: 20)
        value.confidence = 0.2
        let below = line("12", height: 25, top: 300)
        let refused = try assembler(100).assemble([value, below])
        XCTAssertTrue(isNone(refused))
        XCTAssertEqual(refused.refusal?.reason, .unclearDigits)
        XCTAssertTrue(refused.refusal?.message.contains("unclear (3939.3)") ?? false, "\(refused.outcome)")
        let given = ReadingAssembler(peripheral: try XCTUnwrap(catalog[100]), minimumConfidence: 0.15).assemble([value, below])
        XCTAssertEqual(given.readingString, "3939.3")
        XCTAssertEqual(given.confidence, 0.2, accuracy: 1e-12)
    }

    /// A display of dark digits (peripheral 101) gives no value from a line whose ink was judged light, unless
    /// the recognizer reads either polarity and that judgement is only an estimate.
    func testInkOfTheOtherPolarityIsNoFieldWhereTheRecognizerReadsOnlyOne() throws {
        var value = line("115", height: 60, top: 20)
        value.polarity = .light
        XCTAssertTrue(isNone(try assembler(101).assemble([value])))
        var either = try assembler(101)
        either.checksPolarity = false
        XCTAssertEqual(either.assemble([value]).readingString, "115")
        value.polarity = .dark
        XCTAssertEqual(try assembler(101).assemble([value]).readingString, "115")
    }

    /// A line `---` 70 px tall above a 7.0, its dashes 20 px wide starting at `xs`.
    func dashesAboveSevenPointZero(at xs: [Int]) throws -> Reading {
        var dashes = line("---", height: 70, top: 10)
        for (i, x) in xs.enumerated() { dashes.characters[i].box = PixelRect(x: x, y: 25, width: 20, height: 3) }
        return try assembler(5).assemble([dashes, line("7.0", height: 52, top: 120)])
    }

    /// Bars of wood grain or a printed rule read as minus signs far apart, and a row of dashes has no digit
    /// height of its own: it must not outrank the number.
    func testScatteredDashesAreNotALineOfTheDisplay() throws {
        let reading = try dashesAboveSevenPointZero(at: [0, 180, 300])
        XCTAssertEqual(reading.readingString, "7.0")
        XCTAssertEqual(reading.recognizedText, "7.0")
    }

    /// A display showing dashes while it measures has no value, even when something smaller shows digits.
    func testEvenlySpacedDashesStillStopTheReading() throws {
        let reading = try dashesAboveSevenPointZero(at: [0, 30, 60])
        XCTAssertNil(reading.readingString)
        XCTAssertEqual(reading.outcome, .none(Refusal(.implausible, "--- is not a number")))
    }

    /// A meter whose large value could not be read still shows the time: the time must not become the value.
    func testASmallNumberBesideLargerUnreadCharactersIsNotTheValue() throws {
        let unread = line("??", height: 80, top: 100)
        let time = line("418", height: 23, top: 190, x: 100)
        let reading = try assembler(9).assemble([unread, time])
        XCTAssertNil(reading.readingString)
        XCTAssertEqual(reading.outcome, .none(Refusal(.largerCharactersUnread, "larger characters beside 418 could not be read")))
        // Far below the unread characters, or over them (the window around the number), it does not count.
        XCTAssertEqual(try assembler(9).assemble([unread, line("418", height: 23, top: 300, x: 100)]).readingString, "418")
        let window = line("??", height: 80, top: 170, x: 80)
        XCTAssertEqual(try assembler(9).assemble([window, time]).readingString, "418")
    }

    func testTheTallestNumberLikeLineIsTheValueOfAOneFieldPeripheral() throws {
        let lines = [
            line("1045", height: 14, top: 10),  // the time, small, at the top
            line("123", height: 60, top: 60),
            line("8", height: 90, top: 150),  // one character: not number-like, however tall
            line("??", height: 80, top: 200),  // unreadable: not number-like
        ]
        let reading = try assembler(9).assemble(lines)
        XCTAssertEqual(reading.outcome, .values([
            FieldValue(field: .bloodGlucose, text: "123", value: 123, unit: "mg/dL", decimals: 0, confidence: 0.9),
        ]))
        XCTAssertEqual(reading.readingString, "123")
        XCTAssertEqual(reading.confidence, 0.9)
        XCTAssertEqual(reading.lines.map(\.text), ["123"])
        // Every number-like line, top to bottom.
        XCTAssertEqual(reading.recognizedText, "1045\n123")
    }

    func testNoNumberLikeLineIsNoReading() throws {
        let reading = try assembler(9).assemble([line("8", height: 60), line("?7?", height: 50)])
        XCTAssertEqual(reading.outcome, .none(Refusal(.noDigits, "no digits found")))
        // Digits on a textured band (much ink that is no character) are not a display's.
        var textured = line("123", height: 60)
        textured.noise = 0.2
        XCTAssertEqual(try assembler(9).assemble([textured]).outcome, .none(Refusal(.noDigits, "no digits found")))
        textured.noise = 0.05
        XCTAssertEqual(values(try assembler(9).assemble([textured])), ["123"])
        XCTAssertNil(reading.readingString)
        XCTAssertEqual(try assembler(9).assemble([]).outcome, .none(Refusal(.noDigits, "no digits found")))
    }

    // MARK: - Units, decimals and ranges

    func testGlucoseInMgPerDlWantsWholeNumbers() throws {
        XCTAssertEqual(values(try assembler(9).assemble([line("123")])), ["123"])
        XCTAssertEqual(try assembler(9).assemble([line("123")]).values.first?.unit, "mg/dL")  // the default
        XCTAssertTrue(isNone(try assembler(9).assemble([line("5.6")])))
        XCTAssertTrue(isNone(try assembler(9, unit: "mg/dL").assemble([line("5.6")])))
    }

    func testGlucoseInMmolPerLWantsOneDecimal() throws {
        let reading = try assembler(9, unit: "mmol/L").assemble([line("5.6")])
        XCTAssertEqual(reading.outcome, .values([
            FieldValue(field: .bloodGlucose, text: "5.6", value: 5.6, unit: "mmol/L", decimals: 1, confidence: 0.9),
        ]))
        XCTAssertTrue(isNone(try assembler(9, unit: "mmol/L").assemble([line("123")])))
        XCTAssertTrue(isNone(try assembler(9, unit: "mmol/L").assemble([line("5.60")])))
        // Unit names are matched without regard to case; an unknown unit reads nothing.
        XCTAssertEqual(values(try assembler(9, unit: "MMOL/L").assemble([line("5.6")])), ["5.6"])
        XCTAssertTrue(isNone(try assembler(9, unit: "kg").assemble([line("123")])))
    }

    func testValuesOutsideThePlausibleRangeAreNoReading() throws {
        // Glucose 20-600 mg/dL and 1.1-33.3 mmol/L.
        XCTAssertTrue(isNone(try assembler(9).assemble([line("700")])))
        XCTAssertTrue(isNone(try assembler(9).assemble([line("15")])))
        XCTAssertEqual(values(try assembler(9).assemble([line("20")])), ["20"])
        XCTAssertEqual(values(try assembler(9).assemble([line("600")])), ["600"])
        XCTAssertTrue(isNone(try assembler(9, unit: "mmol/L").assemble([line("40.0")])))
        XCTAssertTrue(isNone(try assembler(9, unit: "mmol/L").assemble([line("0.5")])))
        // Pulse oximeter: SpO2 at most 100.
        XCTAssertTrue(isNone(try assembler(6).assemble([line("101", top: 0), line("72", top: 60)])))
    }

    func testLeadingZerosAreDroppedFromMeasurementsButKeptOnANumericDisplay() throws {
        let glucose = try assembler(9).assemble([line("098")])
        XCTAssertEqual(glucose.values.first?.text, "98")
        XCTAssertEqual(glucose.values.first?.value, 98)
        let display = try assembler(100).assemble([line("0456")])
        XCTAssertEqual(display.values.first?.text, "0456")
        XCTAssertEqual(display.values.first?.value, 456)
        XCTAssertEqual(display.values.first?.unit, "")
    }

    func testTheThermometerTellsCelsiusFromFahrenheitByTheValue() throws {
        let celsius = try assembler(1).assemble([line("37.5")])
        XCTAssertEqual(celsius.values.first?.unit, "°C")
        XCTAssertEqual(celsius.values.first?.value, 37.5)
        let fahrenheit = try assembler(1).assemble([line("99.5")])
        XCTAssertEqual(fahrenheit.values.first?.unit, "°F")
        // In neither range, or without the decimal.
        XCTAssertTrue(isNone(try assembler(1).assemble([line("50.0")])))
        XCTAssertTrue(isNone(try assembler(1).assemble([line("375")])))
        // A unit asked for is the only one accepted.
        XCTAssertTrue(isNone(try assembler(1, unit: "°F").assemble([line("37.5")])))
        XCTAssertEqual(try assembler(1, unit: "°F").assemble([line("99.5")]).values.first?.unit, "°F")
    }

    func testALeadingMinusIsDroppedWhereAFieldCannotBeNegative() throws {
        XCTAssertEqual(values(try assembler(9).assemble([line("-123")])), ["123"])
        XCTAssertEqual(try assembler(9).assemble([line("-123")]).values.first?.value, 123)
        XCTAssertEqual(values(try assembler(1).assemble([line("-37.5")])), ["37.5"])
        // A numeric display has no range: its minus stays.
        let display = try assembler(100).assemble([line("-12.5")])
        XCTAssertEqual(display.values.first?.text, "-12.5")
        XCTAssertEqual(display.values.first?.value, -12.5)
        XCTAssertEqual(display.values.first?.decimals, 1)
    }

    // MARK: - Unclear lines

    func testUnreadableOrDoubtfulCharactersAreNoReading() throws {
        // A `?` among clear digits: still number-like, but not a value.
        let unreadable = try assembler(9).assemble([line("1?3")])
        XCTAssertTrue(isNone(unreadable))
        XCTAssertNil(unreadable.readingString)
        XCTAssertEqual(unreadable.recognizedText, "1?3")
        // Characters clear enough to make a number-like line (0.3) but below the minimum confidence (0.35).
        XCTAssertTrue(isNone(try assembler(9).assemble([line("123", confidence: 0.32)])))
        XCTAssertEqual(values(try assembler(9).assemble([line("123", confidence: 0.4)])), ["123"])
        XCTAssertEqual(try assembler(9).assemble([line("123", confidence: 0.4)]).confidence, 0.4)
    }

    func testAMissingDigitIsNoReading() throws {
        let reading = try assembler(9).assemble([line("123", hasGap: true)])
        XCTAssertTrue(isNone(reading))
        XCTAssertTrue(reading.values.isEmpty)
    }

    func testAnythingButANumberIsNoReading() throws {
        for text in ["1-2", "12.", "1.2.3", "5-"] {
            XCTAssertTrue(isNone(try assembler(100).assemble([line(text)])), text)
        }
    }

    // MARK: - Display words

    func testDisplayWordsAreWordsNeverNumbers() throws {
        for (text, word) in [("LO", "LO"), ("L0", "LO"), ("Lo", "LO"), ("HI", "HI"), ("H1", "HI"), ("Err", "Err"), ("Er", "Err")] {
            let reading = try assembler(9).assemble([line(text, height: 60), line("1045", height: 15, top: 0)])
            XCTAssertEqual(reading.outcome, .word(word), text)
            XCTAssertNil(reading.readingString, text)
            XCTAssertEqual(reading.lines.map(\.text), [text])
        }
        // On a blood pressure monitor too, before any field is looked for.
        XCTAssertEqual(try assembler(2).assemble([line("Err", height: 60)]).outcome, .word("Err"))
    }

    // MARK: - Several fields

    func testBloodPressureTakesThreeLinesTopToBottom() throws {
        let sys = line("120", height: 50, top: 20), dia = line("80", height: 50, top: 90), pulse = line("72", height: 30, top: 160)
        let time = line("1045", height: 12, top: 0)
        for order in [[sys, dia, pulse, time], [pulse, time, dia, sys], [dia, sys, time, pulse]] {
            let reading = try assembler(2).assemble(order)
            XCTAssertEqual(reading.values.map(\.field), [.systolic, .diastolic, .pulse])
            XCTAssertEqual(reading.readingString, "120/80/72")
            XCTAssertEqual(reading.values.map(\.unit), ["mmHg", "mmHg", "bpm"])
            XCTAssertEqual(reading.lines.map(\.text), ["120", "80", "72"])
        }
    }

    /// A photo of a monitor upside down or turned by a quarter, whose lines a trained locator read in place
    /// (their corners in reading order point the other way): the rows are taken top to bottom in the
    /// display's frame, so the systolic value is the one at the bottom of the image (at the right of it).
    func testBloodPressureRowsFollowTheDisplayNotTheImageWhenTurned() throws {
        let rows = [line("120", height: 50, top: 20), line("80", height: 50, top: 90), line("72", height: 30, top: 160)]
        // About the point (200, 200): a half turn and a quarter turn (clockwise on screen).
        let turns: [(Point) -> Point] = [
            { Point(x: 400 - $0.x, y: 400 - $0.y) },
            { Point(x: 400 - $0.y, y: $0.x) },
        ]
        for turn in turns {
            let turned = rows.map { line -> RecognizedLine in
                var out = line
                out.corners = line.corners?.map(turn)
                return out
            }
            let reading = try assembler(2).assemble(turned.reversed())
            XCTAssertEqual(reading.readingString, "120/80/72")
            XCTAssertEqual(reading.lines.map(\.text), ["120", "80", "72"])
        }
    }

    func testBloodPressureRefusesSystolicNotAboveDiastolic() throws {
        let reading = try assembler(2).assemble([line("80", height: 50, top: 20), line("120", height: 50, top: 90), line("72", height: 30, top: 160)])
        XCTAssertTrue(isNone(reading))
        XCTAssertNil(reading.readingString)
        let equal = try assembler(2).assemble([line("90", height: 50, top: 20), line("90", height: 50, top: 90), line("72", height: 30, top: 160)])
        XCTAssertTrue(isNone(equal))
    }

    /// A BP monitor's rows show no decimal point: one read among a row's digits (a gap in an italic `1`, a speck)
    /// is not the display's, and the digits are the value. A field that may show one keeps its check.
    func testAPointReadInARowThatShowsNoneIsDropped() throws {
        let reading = try assembler(2).assemble([line("1.20", height: 50, top: 20), line("80", height: 50, top: 90), line("72", height: 30, top: 160)])
        XCTAssertEqual(reading.readingString, "120/80/72")
        let glucose = try assembler(9, unit: "mg/dL").assemble([line("5.8", height: 50, top: 20)])
        XCTAssertEqual(glucose.refusal?.reason, .implausible, "a glucose meter may show a point (mmol/L): mg/dL reads none")
    }

    func testBloodPressureWithTooFewProminentLinesIsNoReading() throws {
        // The pulse line is less than 0.45 of the tallest: only two prominent lines for three fields.
        let reading = try assembler(2).assemble([line("120", height: 50, top: 20), line("80", height: 50, top: 90), line("72", height: 20, top: 160)])
        XCTAssertEqual(reading.outcome, .none(Refusal(.valuesMissing, "found 2 of the 3 values")))
    }

    func testFieldsSideBySideAreReadLeftToRight() throws {
        // An oximeter showing SpO2 and pulse on one row.
        let reading = try assembler(6).assemble([line("72", height: 40, top: 50, x: 200), line("98", height: 40, top: 52, x: 40)])
        XCTAssertEqual(reading.values.map(\.field), [.spo2, .pulse])
        XCTAssertEqual(reading.readingString, "98/72")
    }

    /// Two values on rows that lie nearly one after the other along the reading direction: with the lines'
    /// direction the larger one's row is above, but with it turned by 25 degrees the smaller one's, to its left
    /// and lower, is. Both orders are plausible for an oximeter, so neither is guessed; stacked well apart, the
    /// same values are read. Where only one of the two orders is plausible, that one is read.
    func testValuesWhoseOrderTurnsOnTheReadingDirectionAreRefused() throws {
        let oximeter = try assembler(6)
        let diagonal = oximeter.assemble([line("98", height: 40, top: 50, x: 100), line("72", height: 30, top: 78, x: 0)])
        XCTAssertTrue(isNone(diagonal), "\(diagonal.outcome)")
        XCTAssertEqual(diagonal.refusal?.reason, .unclearOrder)
        XCTAssertTrue(diagonal.refusal?.message.hasPrefix("the order of the values is unclear: 98/72 or 72/98") ?? false, "\(diagonal.outcome)")
        let stacked = oximeter.assemble([line("98", height: 40, top: 20, x: 100), line("72", height: 30, top: 120, x: 0)])
        XCTAssertEqual(stacked.readingString, "98/72")
        // Where the other order is implausible (SpO2 above 100), the order read stands.
        let pulseFirst = oximeter.assemble([line("98", height: 40, top: 50, x: 100), line("120", height: 30, top: 78, x: 0)])
        XCTAssertEqual(pulseFirst.readingString, "98/120")
        // Where only the other order is plausible (the order read puts a pulse of 120 as SpO2), the other is read.
        let otherOnly = oximeter.assemble([line("120", height: 40, top: 50, x: 100), line("98", height: 30, top: 78, x: 0)])
        XCTAssertEqual(otherOnly.readingString, "98/120")
        // Stacked well apart, the order is clear, and the same values are refused as implausible.
        let clear = oximeter.assemble([line("120", height: 40, top: 20, x: 100), line("98", height: 30, top: 120, x: 0)])
        XCTAssertEqual(clear.refusal?.reason, .implausible, "\(clear.outcome)")
    }

    /// `line` turned half a turn in place: it reads right to left, upside down.
    func turned(_ line: RecognizedLine) -> RecognizedLine {
        var turned = line
        let c = line.corners!
        turned.corners = LineQuad(topLeft: c.bottomRight, topRight: c.bottomLeft, bottomRight: c.topLeft, bottomLeft: c.topRight)
        return turned
    }

    /// `line` turned by `angle` (radians, clockwise on screen) about its top-left corner.
    func rotated(_ line: RecognizedLine, by angle: Double) -> RecognizedLine {
        var out = line
        let c = line.corners!, o = c.topLeft
        func turn(_ p: Point) -> Point {
            let dx = p.x - o.x, dy = p.y - o.y
            return Point(x: o.x + dx * cos(angle) - dy * sin(angle), y: o.y + dx * sin(angle) + dy * cos(angle))
        }
        out.corners = LineQuad(topLeft: turn(c.topLeft), topRight: turn(c.topRight), bottomRight: turn(c.bottomRight), bottomLeft: turn(c.bottomLeft))
        return out
    }

    /// A BP monitor held upside down whose systolic row was read as it stands (its `112` as `211`) beside the
    /// diastolic and pulse read turned: values read in opposite directions are not one display's reading.
    func testValuesReadInOppositeDirectionsAreRefused() throws {
        let bp = try assembler(2)
        let rows = [line("211", height: 50, top: 20), line("92", height: 50, top: 90), line("65", height: 30, top: 160)]
        XCTAssertEqual(bp.assemble(rows).readingString, "211/92/65", "one direction: read")
        let mixed = bp.assemble([rows[0], turned(rows[1]), turned(rows[2])])
        XCTAssertEqual(mixed.refusal?.reason, .turnsDisagree, "\(mixed.outcome)")
        let allTurned = bp.assemble(rows.map(turned))
        XCTAssertNotEqual(allTurned.refusal?.reason, .turnsDisagree, "all turned alike: one direction (\(allTurned.outcome))")
        // A row 60 degrees off the others (a locator's direction for a short row is rough) is within the spread.
        let steep = rotated(rows[2], by: Double.pi / 3)
        XCTAssertEqual(bp.assemble([rows[0], rows[1], steep]).readingString, "211/92/65")
        var narrow = bp
        narrow.configuration.directionSpread = Double.pi / 4
        XCTAssertEqual(narrow.assemble([rows[0], rows[1], steep]).refusal?.reason, .turnsDisagree)
    }

    /// A glucose meter upside down on its box, its `106` read as it stands (`90`) beside the box's picture of it,
    /// read turned (`106`): a value line read sure the other way up beside the value refuses it, and no later
    /// look may give that value; a smaller line (a clock), an unsure one or one read the same way up does not.
    func testASingleValueBesideAValueLineReadTheOtherWayUpIsRefused() throws {
        var glucose = try assembler(9)
        glucose.minimumConfidence = 0.7
        let value = line("90", height: 30, top: 80)
        let box = line("106", height: 20, top: 120, x: 100)
        let refused = glucose.assemble([value, turned(box)])
        XCTAssertEqual(refused.refusal?.reason, .turnsDisagree, "\(refused.outcome)")
        XCTAssertEqual(refused.refusal?.mayBeReadTurned, "90")
        XCTAssertTrue(refused.refusal?.doubts("90") == true)
        XCTAssertEqual(glucose.assemble([value, box]).readingString, "90", "one way up: read")
        let clock = line("106", height: 12, top: 120, x: 100)
        XCTAssertEqual(glucose.assemble([value, turned(clock)]).readingString, "90", "far smaller than the value")
        let unsure = line("106", height: 20, top: 120, x: 100, confidence: 0.4)
        XCTAssertEqual(glucose.assemble([value, turned(unsure)]).readingString, "90", "not read sure")
    }

    /// An oximeter's SpO2 and pulse found as one line: cut where the digits leave no doubt.
    func testTwoValuesFoundAsOneLineAreCutWhereOnlyOneCutIsPlausible() throws {
        let oximeter = try assembler(6)
        XCTAssertEqual(oximeter.assemble([line("9776", confidence: 0.95)]).readingString, "97/76")
        XCTAssertEqual(oximeter.assemble([line("99132", confidence: 0.95)]).readingString, "99/132")
        XCTAssertEqual(oximeter.assemble([line("100130", confidence: 0.95)]).readingString, "100/130")
        // A blood pressure monitor whose diastolic and pulse were found as one line below the systolic.
        let bp = try assembler(2).assemble([line("120", height: 50, top: 20), line("8072", height: 50, top: 90, confidence: 0.95)])
        XCTAssertEqual(bp.readingString, "120/80/72")
    }

    /// A merged line is not cut where that is a guess: read less sure than `mergedLineConfidence` (though above
    /// the reading threshold), a part that would start with a 0, no cut with both parts plausible, a gap.
    func testAMergedLineIsNotCutOnAGuess() throws {
        var oximeter = try assembler(6)
        oximeter.minimumConfidence = 0.7
        XCTAssertEqual(oximeter.assemble([line("8571", confidence: 0.87)]).outcome, .none(Refusal(.valuesMissing, "found 1 of the 2 values")))
        XCTAssertEqual(oximeter.assemble([line("8571", confidence: 0.95)]).readingString, "85/71")
        XCTAssertTrue(isNone(oximeter.assemble([line("98062", confidence: 0.95)])), "98/062: a pulse shown as 062")
        XCTAssertTrue(isNone(oximeter.assemble([line("17491", confidence: 0.95)])), "no SpO2 of 1 or 17")
        XCTAssertTrue(isNone(oximeter.assemble([line("98.72", confidence: 0.95)])), "digits only")
        XCTAssertTrue(isNone(oximeter.assemble([line("9776", confidence: 0.95, hasGap: true)])))
    }

    /// A value line read sure that its field cannot show is named in the refusal, for later looks to be held to;
    /// one read unsure, or a value read, names none.
    func testAValueReadSureButImplausibleIsNamed() throws {
        var oximeter = try assembler(6)
        oximeter.minimumConfidence = 0.7
        let bar = oximeter.assemble([line("197", height: 30, top: 20), line("84", height: 30, top: 20, x: 200)])
        XCTAssertEqual(bar.refusal?.reason, .implausible, "\(bar.outcome)")
        XCTAssertEqual(bar.refusal?.readSureAs, SureText("197"), "7 has no turned twin")
        let unsure = oximeter.assemble([line("197", height: 30, top: 20, confidence: 0.4), line("84", height: 30, top: 20, x: 200)])
        XCTAssertEqual(unsure.refusal?.reason, .unclearDigits)
        XCTAssertNil(unsure.refusal?.readSureAs)
        XCTAssertEqual(oximeter.assemble([line("97", height: 30, top: 20), line("84", height: 30, top: 20, x: 200)]).readingString, "97/84")
        let glucose = try assembler(9)
        XCTAssertEqual(
            glucose.assemble([line("801")]).refusal?.readSureAs, SureText("801", plausibleTurnedOver: "108"),
            "out of range, and 108 turned over")
        XCTAssertEqual(
            oximeter.assemble([line("28", height: 30, top: 20), line("84", height: 30, top: 20, x: 200)]).refusal?.readSureAs,
            SureText("28"), "82 is an SpO2, but on a display of two values 28 may be the other field's")
        XCTAssertEqual(glucose.assemble([line("702")]).refusal?.readSureAs, SureText("702"), "7 has no turned twin")
        XCTAssertEqual(glucose.assemble([line("6666")]).refusal?.readSureAs, SureText("6666"), "9999 is out of range too")
        XCTAssertNil(glucose.assemble([line("80I")]).refusal?.readSureAs, "not a number: no digits it must hold")
    }
}
