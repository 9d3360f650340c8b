import Foundation
import VitalSnapRecords
import XCTest
import VitalSnapImaging
@testable import VitalSnapOCR

final class RecordBuilderTests: XCTestCase {
    /// 2024-03-05 12:10:00 UTC.
    private let instant = Date(timeIntervalSince1970: 1_709_640_600)
    private let newYorkWinter = TimeZone(secondsFromGMT: -18_000)!
    private let crop = GrayImage(width: 4, height: 2, pixels: [0, 50, 100, 150, 200, 250, 10, 20])

    private func peripheral(_ id: Int) throws -> PeripheralDefinition {
        try XCTUnwrap(PeripheralCatalog.builtIn()[id], "peripheral \(id)")
    }

    private func value(_ field: FieldName, _ text: String, _ unit: String, confidence: Double = 0.9) -> FieldValue {
        let decimals = text.split(separator: ".").dropFirst().first?.count ?? 0
        return FieldValue(
            field: field, text: text, value: Double(text)!, unit: unit, decimals: decimals, confidence: confidence)
    }

    private func reading(_ values: FieldValue..., text: String? = nil) -> Reading {
        Reading(
            outcome: .values(values), confidence: values.map(\.confidence).min() ?? 0,
            recognizedText: text ?? values.map(\.text).joined(separator: "\n"), lines: [])
    }

    private func capture(_ reading: Reading, peripheral id: Int) throws -> OCRCapture {
        try RecordBuilder(peripheral: peripheral(id)).capture(
            reading, crop: crop, displayRegion: PixelRect(x: 120, y: 80, width: 400, height: 240),
            glare: GlareReport(regions: [], share: 0.04, coversDigits: false), timestamp: instant,
            timeZone: newYorkWinter)
    }

    private func buildError(_ reading: Reading, peripheral id: Int) throws -> RecordBuildError? {
        let builder = RecordBuilder(peripheral: try peripheral(id))
        do throws(RecordBuildError) {
            _ = try builder.capture(
                reading, crop: crop, displayRegion: nil, timestamp: instant)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Glucose meters

    func testMmolGlucoseMeterMakesDiabetesRecordInMgPerDL() throws {
        let result = try capture(reading(value(.bloodGlucose, "5.6", "mmol/L")), peripheral: 102)
        let record = try XCTUnwrap(result.record.diabetes)
        XCTAssertEqual(record.bloodGlucose, 100.8)
        XCTAssertEqual(record.displayedBloodGlucose, DisplayedValue(5.6, .mmolPerL))
        XCTAssertNil(record.relationshipToMeal)
    }

    func testMgPerDLGlucoseMeterKeepsTheValue() throws {
        let result = try capture(reading(value(.bloodGlucose, "123", "mg/dL")), peripheral: 101)
        let record = try XCTUnwrap(result.record.diabetes)
        XCTAssertEqual(record.bloodGlucose, 123)
        XCTAssertEqual(record.displayedBloodGlucose.unit, .mgPerDL)
    }

    func testGenericGlucoseMeterInEitherUnit() throws {
        let mmol = try capture(reading(value(.bloodGlucose, "7.2", "mmol/L")), peripheral: 9)
        XCTAssertEqual(mmol.record.diabetes?.bloodGlucose, 129.6)
        let mg = try capture(reading(value(.bloodGlucose, "98", "mg/dL")), peripheral: 9)
        XCTAssertEqual(mg.record.diabetes?.bloodGlucose, 98)
    }

    // MARK: Blood pressure, thermometers, oximeters, scales

    func testBloodPressureMonitorMakesBiometricsRecord() throws {
        let result = try capture(
            reading(value(.systolic, "128", "mmHg"), value(.diastolic, "82", "mmHg"), value(.pulse, "71", "bpm")),
            peripheral: 103)
        let record = try XCTUnwrap(result.record.biometrics)
        XCTAssertEqual(record.systolic, 128)
        XCTAssertEqual(record.diastolic, 82)
        XCTAssertEqual(record.restingHeartRate, 71)
        XCTAssertNil(record.temperature)
        XCTAssertNil(record.spo2)
    }

    func testBloodPressureWithoutPulseIsStillARecord() throws {
        let result = try capture(reading(value(.systolic, "118", "mmHg"), value(.diastolic, "76", "mmHg")), peripheral: 2)
        XCTAssertEqual(result.record.biometrics?.systolic, 118)
        XCTAssertNil(result.record.biometrics?.restingHeartRate)
    }

    func testFahrenheitThermometerIsConvertedToCelsius() throws {
        let result = try capture(reading(value(.temperature, "100.4", "°F")), peripheral: 1)
        let record = try XCTUnwrap(result.record.biometrics)
        XCTAssertEqual(record.temperature, 38.0)
        XCTAssertEqual(record.displayedTemperature, DisplayedValue(100.4, .fahrenheit))
        XCTAssertNil(record.systolic)
    }

    func testCelsiusThermometer() throws {
        let result = try capture(reading(value(.temperature, "36.8", "°C")), peripheral: 104)
        XCTAssertEqual(result.record.biometrics?.temperature, 36.8)
        XCTAssertEqual(result.record.biometrics?.displayedTemperature?.unit, .celsius)
    }

    func testPulseOximeterMakesBiometricsRecord() throws {
        let result = try capture(reading(value(.spo2, "97", "%"), value(.pulse, "64", "bpm")), peripheral: 106)
        let record = try XCTUnwrap(result.record.biometrics)
        XCTAssertEqual(record.spo2, 97)
        XCTAssertEqual(record.restingHeartRate, 64)
        XCTAssertNil(record.systolic)
    }

    func testPoundScaleIsConvertedToKilograms() throws {
        let result = try capture(reading(value(.weight, "154.3", "lb")), peripheral: 5)
        let record = try XCTUnwrap(result.record.weight)
        XCTAssertEqual(record.weight, 69.989302691)
        XCTAssertEqual(record.displayedWeight, DisplayedValue(154.3, .pounds))
    }

    func testKilogramScale() throws {
        let result = try capture(reading(value(.weight, "72.4", "kg")), peripheral: 105)
        XCTAssertEqual(result.record.weight?.weight, 72.4)
    }

    // MARK: Header, extras, capture

    func testHeaderCarriesTimePeripheralAndProvenance() throws {
        let result = try capture(reading(value(.bloodGlucose, "5.6", "mmol/L")), peripheral: 102)
        let header = result.record.header
        XCTAssertEqual(header.timestamp, instant)
        XCTAssertEqual(header.utcOffset.description, "-05:00")
        XCTAssertEqual(header.timestampText, "2024-03-05T07:10:00-05:00")
        XCTAssertEqual(header.peripheralID, 102)
        XCTAssertEqual(header.source, "vitalsnap")
        XCTAssertEqual(header.sourceName, "VitalSnap")
        XCTAssertEqual(header.originalSource, "VitalSnap Samples")
        XCTAssertEqual(header.device, "Glucose G2 (mmol/L)")
        XCTAssertFalse(header.validated, "a camera reading is not device-transmitted")
        XCTAssertNotNil(UUID(uuidString: header.activityID))
        XCTAssertNoThrow(try result.record.validate())
    }

    func testGenericPeripheralHasNoManufacturer() throws {
        let result = try capture(reading(value(.bloodGlucose, "98", "mg/dL")), peripheral: 9)
        XCTAssertNil(result.record.header.originalSource)
        XCTAssertEqual(result.record.header.device, "Glucose meter")
    }

    func testMetadataGoesBesideTheRecordAndIntoItsExtras() throws {
        let result = try capture(
            reading(value(.systolic, "128", "mmHg", confidence: 0.8123), value(.diastolic, "82", "mmHg"),
                    value(.pulse, "71", "bpm"), text: "128\n82\n71"),
            peripheral: 103)
        XCTAssertEqual(result.crop, crop)
        XCTAssertEqual(result.metadata, CaptureMetadata(
            peripheralID: 103, confidence: 0.8123, glareShare: 0.04, glareCoversDigits: false,
            displayRegion: PixelRect(x: 120, y: 80, width: 400, height: 240), recognizedText: "128\n82\n71"))
        XCTAssertEqual(result.record.header.extras, [
            "ocr_confidence": "0.812",
            "ocr_glare_share": "0.04",
            "ocr_glare_covers_digits": "false",
            "ocr_display_region": "[120,80,400,240]",
            "ocr_text": "128\n82\n71",
        ])
        // And in the record's JSON, beside the peripheral ID.
        let json = String(decoding: try RecordJSON.encode(result.record), as: UTF8.self)
        XCTAssertTrue(json.contains(#""ocr_display_region":"[120,80,400,240]""#), json)
        XCTAssertTrue(json.contains(#""peripheral_id":103"#), json)
    }

    func testMetadataJSONWritesTheRegionAsAnArray() throws {
        let metadata = CaptureMetadata(
            peripheralID: 5, confidence: 0.5, glareShare: 0.25, glareCoversDigits: true,
            displayRegion: PixelRect(x: 1, y: 2, width: 3, height: 4), recognizedText: "70.1")
        let data = try RecordJSON.encode(metadata)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), """
            {"confidence":0.5,"display_region":[1,2,3,4],"glare_covers_digits":true,"glare_share":0.25,\
            "peripheral_id":5,"recognized_text":"70.1"}
            """)
        XCTAssertEqual(try JSONDecoder().decode(CaptureMetadata.self, from: data), metadata)
    }

    func testEachCaptureHasItsOwnActivityID() throws {
        let r = reading(value(.weight, "72.4", "kg"))
        let ids = try (0..<50).map { _ in try capture(r, peripheral: 105).record.activityID }
        XCTAssertEqual(Set(ids).count, 50)
    }

    // MARK: Refusals

    func testNumericDisplayIsNotAHealthRecord() throws {
        let error = try buildError(reading(value(.value, "0123", "")), peripheral: 100)
        XCTAssertEqual(error, .notAHealthRecord(peripheralID: 100))
        XCTAssertEqual(error?.description, "peripheral 100 reads numbers, not health records")
        // Whatever it shows.
        let word = Reading(outcome: .word("LO"), confidence: 0.9, recognizedText: "LO", lines: [])
        XCTAssertEqual(try buildError(word, peripheral: 100), .notAHealthRecord(peripheralID: 100))
    }

    func testWordsOnTheDisplayAreNotValues() throws {
        func word(_ w: String) -> Reading { Reading(outcome: .word(w), confidence: 0.9, recognizedText: w, lines: []) }
        XCTAssertEqual(
            try buildError(word("LO"), peripheral: 9)?.description,
            "the meter shows LO: below its measuring range; no value recorded")
        XCTAssertEqual(
            try buildError(word("HI"), peripheral: 101)?.description,
            "the meter shows HI: above its measuring range; no value recorded")
        XCTAssertEqual(
            try buildError(word("Err"), peripheral: 9)?.description,
            "the meter shows Err: the device reports an error; measure again; no value recorded")
        XCTAssertEqual(
            try buildError(word("HI"), peripheral: 1)?.description,
            "the thermometer shows HI: above its measuring range; no value recorded")
        XCTAssertEqual(try buildError(word("LO"), peripheral: 5), .displayShowsWord("LO", device: .weightScale))
    }

    func testNothingReadSaysWhy() throws {
        let none = Reading(outcome: .none(Refusal(.glare, "glare covers the digits")), confidence: 0, recognizedText: "", lines: [])
        let error = try buildError(none, peripheral: 103)
        XCTAssertEqual(error, .noValue(reason: "glare covers the digits"))
        XCTAssertEqual(error?.description, "no value read (glare covers the digits); no value recorded")
    }

    func testMissingFieldIsRefused() throws {
        let error = try buildError(reading(value(.systolic, "128", "mmHg")), peripheral: 2)
        XCTAssertEqual(error, .missingField(.diastolic, peripheralID: 2))
        XCTAssertEqual(
            try buildError(reading(value(.pulse, "64", "bpm")), peripheral: 6), .missingField(.spo2, peripheralID: 6))
    }

    func testUnitsRecordsCannotConvertAreRefused() throws {
        XCTAssertEqual(
            try buildError(reading(value(.bloodGlucose, "5.6", "mmol/mol")), peripheral: 9),
            .unsupportedUnit(.bloodGlucose, unit: "mmol/mol", peripheralID: 9))
        XCTAssertEqual(
            try buildError(reading(value(.systolic, "16.0", "kPa"), value(.diastolic, "10.7", "kPa")), peripheral: 2),
            .unsupportedUnit(.systolic, unit: "kPa", peripheralID: 2))
        XCTAssertEqual(
            try buildError(reading(value(.temperature, "310.2", "K")), peripheral: 1),
            .unsupportedUnit(.temperature, unit: "K", peripheralID: 1))
    }

    func testPhysicallyImpossibleValuesAreRefused() throws {
        let error = try buildError(reading(value(.bloodGlucose, "2500", "mg/dL")), peripheral: 9)
        XCTAssertEqual(error, .invalid(.outOfRange(field: .bloodGlucose, value: 2500, range: 1...2000)))
        XCTAssertEqual(
            error?.description,
            "blood glucose 2500 mg/dL is outside the possible range 1-2000 mg/dL; no value recorded")
        XCTAssertEqual(
            try buildError(reading(value(.systolic, "80", "mmHg"), value(.diastolic, "90", "mmHg")), peripheral: 2),
            .invalid(.systolicNotAboveDiastolic(systolic: 80, diastolic: 90)))
    }
}
