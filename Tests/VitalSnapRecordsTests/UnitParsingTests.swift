import VitalSnapRecords
import XCTest

final class UnitParsingTests: XCTestCase {
    func testGlucoseSpellings() {
        for text in ["mg/dL", "mg/dl", "MG/DL", " mg / dL ", "mgdl", "mg per dL", "mg/100mL"] {
            XCTAssertEqual(GlucoseUnit(parsing: text), .mgPerDL, text)
        }
        for text in ["mmol/L", "mmol/l", "MMOL/L", "mmol", "mmol per L", "mM"] {
            XCTAssertEqual(GlucoseUnit(parsing: text), .mmolPerL, text)
        }
        for text in ["", "mg", "g/L", "mmol/mol", "%", "kg"] {
            XCTAssertNil(GlucoseUnit(parsing: text), text)
        }
    }

    func testTemperatureSpellings() {
        // U+00B0 degree, U+00BA masculine ordinal, U+2103 and U+2109 single-character units.
        for text in ["°C", "°c", "\u{00BA}C", "\u{2103}", "C", "deg C", "Celsius", "centigrade"] {
            XCTAssertEqual(TemperatureUnit(parsing: text), .celsius, text)
        }
        for text in ["°F", "\u{00BA}F", "\u{2109}", "F", "degF", "Fahrenheit"] {
            XCTAssertEqual(TemperatureUnit(parsing: text), .fahrenheit, text)
        }
        for text in ["", "K", "kelvin", "°", "deg"] {
            XCTAssertNil(TemperatureUnit(parsing: text), text)
        }
    }

    func testWeightSpellings() {
        for text in ["kg", "KG", "kgs", "kilograms", "kilo"] {
            XCTAssertEqual(WeightUnit(parsing: text), .kilograms, text)
        }
        for text in ["lb", "lbs", "LBS", "lbs.", "pounds"] {
            XCTAssertEqual(WeightUnit(parsing: text), .pounds, text)
        }
        for text in ["st", "stone", "stones"] {
            XCTAssertEqual(WeightUnit(parsing: text), .stones, text)
        }
        for text in ["", "g", "oz", "mg/dL"] {
            XCTAssertNil(WeightUnit(parsing: text), text)
        }
    }

    func testSymbolsParseBackToTheirUnit() {
        for unit in GlucoseUnit.allCases { XCTAssertEqual(GlucoseUnit(parsing: unit.symbol), unit) }
        for unit in TemperatureUnit.allCases { XCTAssertEqual(TemperatureUnit(parsing: unit.symbol), unit) }
        for unit in WeightUnit.allCases { XCTAssertEqual(WeightUnit(parsing: unit.symbol), unit) }
        XCTAssertEqual(GlucoseUnit.mgPerDL.symbol, "mg/dL")
        XCTAssertEqual(TemperatureUnit.celsius.symbol, "°C")
        XCTAssertEqual(WeightUnit.pounds.symbol, "lb")
    }
}
