import VitalSnapRecords
import XCTest

final class UnitConversionTests: XCTestCase {
    // MARK: Glucose

    func testGlucoseFactorIsTheAndroidSDKs18() {
        XCTAssertEqual(GlucoseUnit.mgPerDLPerMmolPerL, 18)
        XCTAssertEqual(GlucoseUnit.canonical, .mgPerDL)
    }

    func testMmolToMgPerDLKeepsFullPrecision() {
        // 5.6 mmol/L is 100.8 mg/dL: stored as is, not rounded to the 101 a mg/dL meter would show.
        XCTAssertEqual(GlucoseUnit.mmolPerL.toCanonical(5.6), 100.8)
        XCTAssertEqual(GlucoseUnit.convert(5.6, from: .mmolPerL, to: .mgPerDL), 100.8)
        XCTAssertEqual(GlucoseUnit.mgPerDL.format(100.8), "101")
        XCTAssertEqual(GlucoseUnit.mmolPerL.toCanonical(33.3), 599.4)
        XCTAssertEqual(GlucoseUnit.mgPerDL.toCanonical(123), 123)
    }

    func testMgPerDLToMmolRoundsToOneDecimalForDisplay() {
        // 100 / 18 = 5.5555...: one decimal shown, half up.
        XCTAssertEqual(GlucoseUnit.mmolPerL.fromCanonical(100), 5.5555555556)
        XCTAssertEqual(GlucoseUnit.mmolPerL.displayValue(fromCanonical: 100), 5.6)
        XCTAssertEqual(GlucoseUnit.mmolPerL.format(GlucoseUnit.mmolPerL.fromCanonical(100)), "5.6")
        XCTAssertEqual(GlucoseUnit.mmolPerL.displayValue(fromCanonical: 99), 5.5)  // 5.5 exactly
        XCTAssertEqual(GlucoseUnit.mmolPerL.displayValue(fromCanonical: 99.9), 5.6)  // 5.55 rounds up
        XCTAssertEqual(GlucoseUnit.mgPerDL.displayValue(fromCanonical: 100.5), 101)  // half up, not to even
    }

    func testEveryMmolDisplayValueSurvivesTheTripThroughMgPerDL() {
        for tenths in 11...333 {
            let shown = Double(tenths) / 10
            let stored = GlucoseUnit.mmolPerL.toCanonical(shown)
            XCTAssertEqual(GlucoseUnit.mmolPerL.displayValue(fromCanonical: stored), shown, "\(shown) mmol/L")
            XCTAssertEqual(GlucoseUnit.mmolPerL.format(GlucoseUnit.mmolPerL.fromCanonical(stored)), String(shown))
        }
    }

    func testMgPerDLShownInMmolAndBackIsNotTheOriginal() {
        // Why records keep the displayed value: 100 mg/dL -> "5.6" mmol/L -> 100.8 mg/dL -> "101".
        let shownInMmol = GlucoseUnit.mmolPerL.displayValue(fromCanonical: 100)
        XCTAssertEqual(GlucoseUnit.mgPerDL.format(GlucoseUnit.mmolPerL.toCanonical(shownInMmol)), "101")
    }

    // MARK: Temperature

    func testFahrenheitToCelsiusAndBack() {
        XCTAssertEqual(TemperatureUnit.fahrenheit.toCanonical(98.6), 37.0)
        XCTAssertEqual(TemperatureUnit.fahrenheit.toCanonical(32), 0)
        XCTAssertEqual(TemperatureUnit.fahrenheit.toCanonical(100.4), 38.0)
        XCTAssertEqual(TemperatureUnit.fahrenheit.fromCanonical(37), 98.6)
        XCTAssertEqual(TemperatureUnit.convert(40, from: .celsius, to: .fahrenheit), 104)
        XCTAssertEqual(TemperatureUnit.celsius.toCanonical(36.6), 36.6)
        XCTAssertEqual(TemperatureUnit.fahrenheit.format(TemperatureUnit.fahrenheit.fromCanonical(36.6)), "97.9")
        XCTAssertEqual(TemperatureUnit.celsius.format(37), "37.0")
    }

    func testEveryFahrenheitDisplayValueSurvivesTheTripThroughCelsius() {
        for tenths in 896...1112 {
            let shown = Double(tenths) / 10
            let stored = TemperatureUnit.fahrenheit.toCanonical(shown)
            XCTAssertEqual(TemperatureUnit.fahrenheit.displayValue(fromCanonical: stored), shown, "\(shown) °F")
        }
    }

    // MARK: Weight

    func testPoundsAndStonesToKilograms() {
        XCTAssertEqual(WeightUnit.pounds.toCanonical(150), 68.0388555)
        XCTAssertEqual(WeightUnit.pounds.toCanonical(1), 0.45359237)
        XCTAssertEqual(WeightUnit.stones.toCanonical(11), 69.85322498)
        XCTAssertEqual(WeightUnit.stones.toCanonical(1), 6.35029318)
        XCTAssertEqual(WeightUnit.kilograms.toCanonical(72.4), 72.4)
    }

    func testKilogramsToPoundsAndStones() {
        XCTAssertEqual(WeightUnit.pounds.fromCanonical(0.45359237), 1)
        XCTAssertEqual(WeightUnit.pounds.displayValue(fromCanonical: 70), 154.3)
        XCTAssertEqual(WeightUnit.stones.displayValue(fromCanonical: 70), 11.0)
        XCTAssertEqual(WeightUnit.convert(14, from: .pounds, to: .stones), 1)
    }

    func testEveryPoundDisplayValueSurvivesTheTripThroughKilograms() {
        for tenths in stride(from: 40, through: 6600, by: 7) {
            let shown = Double(tenths) / 10
            let stored = WeightUnit.pounds.toCanonical(shown)
            XCTAssertEqual(WeightUnit.pounds.displayValue(fromCanonical: stored), shown, "\(shown) lb")
        }
    }

    // MARK: Display precision

    func testDisplayDecimals() {
        XCTAssertEqual(GlucoseUnit.mgPerDL.displayDecimals, 0)
        XCTAssertEqual(GlucoseUnit.mmolPerL.displayDecimals, 1)
        XCTAssertEqual(TemperatureUnit.fahrenheit.displayDecimals, 1)
        XCTAssertEqual(WeightUnit.kilograms.displayDecimals, 1)
        XCTAssertEqual(GlucoseUnit.mmolPerL.format(5), "5.0")
        XCTAssertEqual(GlucoseUnit.mgPerDL.format(99.5), "100")
    }
}
