import XCTest
@testable import VitalSnapSamples

/// A colour screen draws each value in a colour of its own, chosen for dark fields; on a light field such a colour
/// is darkened until a person could read it (`TrainingSceneParameters.minimumValueInkContrast`, WCAG 2's ratio).
final class ValueInkContrastTests: XCTestCase {
    func testTheContrastRatioIsWCAGs() {
        XCTAssertEqual(RGBColor.black.contrastRatio(with: .white), 21, accuracy: 1e-9)
        XCTAssertEqual(RGBColor.white.contrastRatio(with: .black), 21, accuracy: 1e-9, "either way round")
        XCTAssertEqual(RGBColor.grey(119).contrastRatio(with: .grey(119)), 1, accuracy: 1e-9)
        // sRGB 119 is WCAG's well-known mid grey: 4.5 against white, give or take rounding.
        XCTAssertEqual(RGBColor.grey(119).contrastRatio(with: .white), 4.48, accuracy: 0.02)
        let middle = RGBColor.middleLuminance
        XCTAssertEqual((1 + 0.05) / (middle + 0.05), (middle + 0.05) / 0.05, accuracy: 1e-9, "as far from white as from black")
    }

    func testALightInkOnALightFieldIsDarkenedJustEnough() {
        let field = RGBColor(232, 234, 240)
        for ink in [RGBColor(250, 250, 250), RGBColor(255, 220, 0), RGBColor(0, 215, 255)] {
            XCTAssertLessThan(ink.contrastRatio(with: field), 2, "\(ink) is hard to read on \(field) as it is")
            let legible = ink.legible(on: field, ratio: 3)
            XCTAssertGreaterThanOrEqual(legible.contrastRatio(with: field), 3)
            XCTAssertLessThan(legible.contrastRatio(with: field), 3.05, "moved no further than it must")
            XCTAssertLessThan(legible.relativeLuminance, ink.relativeLuminance, "towards black on a light field")
        }
    }

    func testALegibleInkIsLeftAsItIs() {
        let yellow = RGBColor(255, 220, 0), navy = RGBColor(10, 20, 60)
        XCTAssertEqual(yellow.legible(on: navy, ratio: 3), yellow)
        XCTAssertEqual(RGBColor(20, 40, 120).legible(on: .grey(235), ratio: 3), RGBColor(20, 40, 120))
    }

    func testADarkInkOnADarkFieldIsLightened() {
        let field = RGBColor(10, 12, 30), ink = RGBColor(40, 30, 90)
        let legible = ink.legible(on: field, ratio: 3)
        XCTAssertGreaterThanOrEqual(legible.contrastRatio(with: field), 3)
        XCTAssertGreaterThan(legible.relativeLuminance, ink.relativeLuminance)
    }

    /// Every value line of random colour-screen blood pressure monitors and oximeters, light fields and dark.
    func testEveryValueOfAColourScreenIsLegibleOnItsField() {
        let p = TrainingSceneParameters()
        var lightFields = 0, valuesDarkened = 0
        for seed in 0..<400 {
            var random = SampleRandom(seed: UInt64(seed))
            let look = DisplayPalette.look(.colorScreen, parameters: p, random: &random)
            var generator = DisplayLayoutGenerator(random: random, parameters: p, look: look)
            let layout = seed.isMultiple(of: 2) ? generator.bloodPressure() : generator.oximeter()
            let light = look.background.relativeLuminance > RGBColor.middleLuminance
            if light { lightFields += 1 }
            for line in Self.valueLines(layout.root) {
                XCTAssertGreaterThanOrEqual(
                    line.color.contrastRatio(with: look.background), p.minimumValueInkContrast - 1e-6,
                    "seed \(seed): \(line.text) in \(line.color) on \(look.background)")
                if light && line.color != look.ink && !DisplayPalette.screenInks.contains(line.color) { valuesDarkened += 1 }
            }
        }
        XCTAssertGreaterThan(lightFields, 50, "light colour screens are drawn")
        XCTAssertGreaterThan(valuesDarkened, 50, "and their values' screen colours darkened")
    }

    static func valueLines(_ box: LayoutBox) -> [TextLineSpec] {
        switch box {
        case .line(let spec): spec.role == .value ? [spec] : []
        case .row(let items, _, _), .column(let items, _, _): items.flatMap(valueLines)
        default: []
        }
    }
}
