import Foundation
import VitalSnapOCR
import XCTest
@testable import VitalSnapSamples

final class ReadingGeneratorTests: XCTestCase {
    static let catalog = try! PeripheralCatalog.builtIn()

    func testEveryDesignedPeripheralHasADesign() {
        let designs = MeterDesign.all(in: Self.catalog)
        XCTAssertEqual(designs.map(\.definition.id), [101, 102, 103, 104, 105, 106])
        XCTAssertEqual(
            designs.map(\.folderName),
            ["glucose-g1", "glucose-g2-mmol", "bp-b3", "thermometer-t1", "scale-s1", "oximeter-o1"])
        XCTAssertEqual(designs[0].deviceDescription, "glucose meter (VitalSnap Samples Glucose G1)")
        XCTAssertNil(MeterDesign.builtIn(for: Self.catalog[9]!), "generic peripherals have no design")
    }

    /// The reading string's shape per peripheral type.
    func testReadingFormatPerPeripheral() throws {
        let patterns: [Int: String] = [
            101: #"^[1-9][0-9]{1,2}$"#,  // mg/dL: integer, no leading zero
            102: #"^[1-9][0-9]?\.[0-9]$"#,  // mmol/L: one decimal
            103: #"^[1-9][0-9]{1,2}/[1-9][0-9]{1,2}/[1-9][0-9]{1,2}$"#,  // SYS/DIA/PULSE
            104: #"^[1-9][0-9]\.[0-9]$"#,  // 36.5
            105: #"^[1-9][0-9]{0,2}\.[0-9]$"#,  // 90.8
            106: #"^[1-9][0-9]{1,2}/[1-9][0-9]{1,2}$"#,  // SpO2/pulse
        ]
        var random = SampleRandom(seed: 11)
        for (id, pattern) in patterns {
            let def = try XCTUnwrap(Self.catalog[id])
            let regex = try NSRegularExpression(pattern: pattern)
            for _ in 0..<300 {
                let content = ReadingGenerator.random(for: def, random: &random)
                let r = content.reading
                XCTAssertNotNil(regex.firstMatch(in: r, range: NSRange(r.startIndex..., in: r)), "\(id): \(r)")
                XCTAssertEqual(content.unit, def.measurementFields[0].units[0].unit)
            }
        }
    }

    /// Every value lies in its unit's plausible range and fits the field's cells.
    func testValuesAreWithinTheDefinitionsRanges() throws {
        var random = SampleRandom(seed: 12)
        for design in MeterDesign.all(in: Self.catalog) {
            let def = design.definition
            for _ in 0..<500 {
                let content = ReadingGenerator.random(for: def, random: &random)
                let values = content.reading.split(separator: "/").map { Double($0)! }
                XCTAssertEqual(values.count, def.measurementFields.count)
                for (value, field) in zip(values, def.measurementFields) {
                    let range = try XCTUnwrap(field.units[0].plausibleRange)
                    XCTAssert(range.contains(value), "\(def.id) \(field.name): \(value) outside \(range)")
                    XCTAssertNotNil(FieldCells.layout(content.texts[field.name]!, cellCount: field.digits), "\(value) fits")
                }
                if def.id == 103 { XCTAssertLessThan(values[1], values[0], "diastolic below systolic") }
            }
        }
    }

    func testEdgeCasesAreOverRepresented() throws {
        var random = SampleRandom(seed: 13)
        let g1 = try XCTUnwrap(Self.catalog[101]), g2 = try XCTUnwrap(Self.catalog[102])
        let mg = (0..<400).map { _ in ReadingGenerator.random(for: g1, random: &random).reading }
        XCTAssert(mg.contains { $0.count == 2 }, "2-digit glucose values")
        XCTAssert(mg.contains { $0.count == 3 && $0.hasPrefix("1") }, "3-digit values with a leading 1")
        XCTAssert(mg.contains { $0.count == 3 && $0.dropFirst().contains("0") }, "internal or trailing zeros")
        XCTAssertGreaterThan(Set(mg).count, 150, "values are spread out")
        let mmol = (0..<400).map { _ in ReadingGenerator.random(for: g2, random: &random).reading }
        XCTAssert(mmol.contains { $0.hasPrefix("10.") || $0.hasPrefix("20.") }, "mmol/L with an internal zero")
        XCTAssert(mmol.contains { $0.hasSuffix(".0") }, "round mmol/L values")
        XCTAssert(mmol.contains { $0.count == 3 }, "single-digit mmol/L values with a blank leading cell")
    }

    func testClockAndDateAreShownWhenTheDisplayHasThem() throws {
        var random = SampleRandom(seed: 14)
        let g1 = try XCTUnwrap(Self.catalog[101])
        for _ in 0..<50 {
            let content = ReadingGenerator.random(for: g1, random: &random)
            let time = try XCTUnwrap(content.texts[.time]), date = try XCTUnwrap(content.texts[.date])
            XCTAssertNotNil(time.range(of: #"^[ 0-9]?[0-9]:[0-5][0-9]$"#, options: .regularExpression), time)
            XCTAssertNotNil(date.range(of: #"^(0[1-9]|1[0-2])-[0-2][0-9]$"#, options: .regularExpression), date)
            XCTAssertFalse(content.reading.contains(":"), "the clock is not part of the reading")
        }
    }

    func testWordsReadAsTheWord() throws {
        var random = SampleRandom(seed: 15)
        let g2 = try XCTUnwrap(Self.catalog[102])
        for word in DisplayWord.allCases {
            let content = ReadingGenerator.word(word, for: g2, random: &random)
            XCTAssertEqual(content.reading, word.rawValue)
            XCTAssertEqual(content.texts[.bloodGlucose], word.rawValue)
            XCTAssertEqual(content.word, word)
            XCTAssertEqual(content.unit, "mmol/L")
        }
    }

    func testFormatIsExact() {
        XCTAssertEqual(ReadingGenerator.format(scaled: 56, decimals: 1), "5.6")
        XCTAssertEqual(ReadingGenerator.format(scaled: 1005, decimals: 1), "100.5")
        XCTAssertEqual(ReadingGenerator.format(scaled: 70, decimals: 1), "7.0")
        XCTAssertEqual(ReadingGenerator.format(scaled: 5, decimals: 2), "0.05")
        XCTAssertEqual(ReadingGenerator.format(scaled: 120, decimals: 0), "120")
    }
}
