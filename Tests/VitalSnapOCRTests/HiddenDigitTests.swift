import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// Glare beside a number refuses it only where a digit hidden there could make another plausible value: which
/// digits could hide (`ReadingAssembler.digitMayHide`), and the glare check asking it, side by side, for a spot
/// in the cell before a number and for one reaching right up to it.
@Suite struct HiddenDigitTests {
    /// A reading of `texts`, one line each, assembled as the reader does for peripheral `id`.
    func reading(_ texts: [String], peripheral id: Int, unit: String? = nil) throws -> (ReadingAssembler, Reading) {
        let assembler = ReadingAssembler(peripheral: try #require(try PeripheralCatalog.builtIn()[id]), unit: unit)
        let lines = texts.enumerated().map { row, text in
            let characters = text.enumerated().map { i, c in
                RecognizedCharacter(character: c, confidence: 0.95, segments: [], box: PixelRect(x: 20 + 30 * i, y: 100 * row, width: 26, height: 40))
            }
            let right = Double(20 + 30 * text.count), top = Double(100 * row)
            return RecognizedLine(
                characters: characters, confidence: 0.95, digitHeight: 40, polarity: .dark,
                corners: LineQuad(
                    topLeft: Point(x: 20, y: top), topRight: Point(x: right, y: top), bottomRight: Point(x: right, y: top + 40),
                    bottomLeft: Point(x: 20, y: top + 40)),
                contrast: 120, hasGap: false)
        }
        let reading = assembler.assemble(lines)
        #expect(reading.values.map(\.text) == texts, "\(reading.outcome)")
        return (assembler, reading)
    }

    @Test func aDigitMayHideOnlyWhereItMakesAnotherPlausibleValue() throws {
        // An oximeter's SpO2 of 94 has no 194 nor 940; its pulse of 99 may be 199, and 9 before it a 999 no.
        let (oximeter, spo2) = try reading(["94", "99"], peripheral: 6)
        #expect(!oximeter.digitMayHide(.before, of: 0, in: spo2))
        #expect(!oximeter.digitMayHide(.after, of: 0, in: spo2))
        #expect(oximeter.digitMayHide(.before, of: 1, in: spo2))
        #expect(!oximeter.digitMayHide(.after, of: 1, in: spo2), "990 and up are past a pulse's range")
        // A weight of 32.5 kg may be 132.5; 149.5 has no 1149.5 nor 149.55.
        let (scale, light) = try reading(["32.5"], peripheral: 5, unit: "kg")
        #expect(scale.digitMayHide(.before, of: 0, in: light))
        #expect(!scale.digitMayHide(.after, of: 0, in: light))
        let (_, heavy) = try reading(["149.5"], peripheral: 5, unit: "kg")
        #expect(!scale.digitMayHide(.before, of: 0, in: heavy))
        // A glucose meter's 7.2 mmol/L may be 17.2, but no 7.25: the unit shows one decimal.
        let (meter, glucose) = try reading(["7.2"], peripheral: 9, unit: "mmol/L")
        #expect(meter.digitMayHide(.before, of: 0, in: glucose), "17.2")
        #expect(!meter.digitMayHide(.after, of: 0, in: glucose), "7.25 has two decimals")
        // A numeric display's values have no range: anything may hide.
        let (display, number) = try reading(["94"], peripheral: 100)
        #expect(display.digitMayHide(.before, of: 0, in: number) && display.digitMayHide(.after, of: 0, in: number))
        // Not a reading of one value a line: it cannot be told.
        #expect(oximeter.digitMayHide(.before, of: 5, in: spo2))
        #expect(oximeter.digitMayHide(.after, of: 0, in: Reading(outcome: .none(.noDigitsFound), confidence: 0, recognizedText: "", lines: [])))
    }

    /// A light window (200) with three dark 8s 34 px tall at x = 60, 82, 104, and a white spot (255) at `spot`.
    func display(spot: PixelRect?) -> GrayImage {
        var image = GrayImage(width: 220, height: 60, fill: 200)
        func fill(_ r: PixelRect, _ level: UInt8) {
            for y in r.minY..<r.maxY { for x in r.minX..<r.maxX { image[x, y] = level } }
        }
        for x in [60, 82, 104] {
            fill(PixelRect(x: x, y: 13, width: 20, height: 6), 40)
            fill(PixelRect(x: x, y: 27, width: 20, height: 6), 40)
            fill(PixelRect(x: x, y: 41, width: 20, height: 6), 40)
            fill(PixelRect(x: x, y: 13, width: 6, height: 34), 40)
            fill(PixelRect(x: x + 14, y: 13, width: 6, height: 34), 40)
        }
        if let spot { fill(spot, 255) }
        return image
    }

    /// The 888 of `display`, its line read left to right or, `backwards`, right to left (turned over).
    func line888(backwards: Bool = false) -> Reading {
        let characters = [60, 82, 104].map { RecognizedCharacter(character: "8", confidence: 1, segments: [], box: PixelRect(x: $0, y: 13, width: 20, height: 34)) }
        let (left, right) = backwards ? (124.0, 60.0) : (60.0, 124.0)
        let line = RecognizedLine(
            characters: characters, confidence: 1, digitHeight: 34, polarity: .dark,
            corners: LineQuad(
                topLeft: Point(x: left, y: backwards ? 47 : 13), topRight: Point(x: right, y: backwards ? 47 : 13),
                bottomRight: Point(x: right, y: backwards ? 13 : 47), bottomLeft: Point(x: left, y: backwards ? 13 : 47)),
            contrast: 160, hasGap: false)
        return Reading(outcome: .values([]), confidence: 1, recognizedText: "888", lines: [line])
    }

    @Test func glareBesideANumberRefusesItOnlyWhereADigitCouldHideThereOrTheGlareReachesIt() {
        var check = GlareCheck()
        // A spot in the cell before the number, clear of it by more than `hiddenDigitClearance` digit heights.
        let apart = display(spot: PixelRect(x: 36, y: 20, width: 12, height: 20))
        var asked: [GlareCover.Side] = []
        #expect(!check.check(apart, reading: line888()) { _, side in asked.append(side); return false }.coversDigits)
        #expect(asked == [.before], "only the covered side is asked")
        #expect(check.check(apart, reading: line888()) { _, _ in true }.coversDigits)
        #expect(check.check(apart, reading: line888()).coversDigits, "without a reader's word, any digit may hide")
        // Turned over, the cell of the smaller x is after the number.
        asked = []
        _ = check.check(apart, reading: line888(backwards: true)) { _, side in asked.append(side); return false }
        #expect(asked == [.after])
        // A spot reaching within the clearance of the number may wash out its own first digit: refused whatever.
        let close = display(spot: PixelRect(x: 42, y: 20, width: 14, height: 20))
        #expect(check.check(close, reading: line888()) { _, _ in false }.coversDigits)
        // No spot: nothing is asked, nothing refused.
        asked = []
        #expect(!check.check(display(spot: nil), reading: line888()) { _, side in asked.append(side); return true }.coversDigits)
        #expect(asked.isEmpty)
    }
}
