import Foundation
import VitalSnapRecords
import XCTest

final class RecordValidationTests: XCTestCase {
    func testPhysicalRanges() {
        XCTAssertEqual(RecordField.bloodGlucose.physicalRange, 1...2000)
        XCTAssertEqual(RecordField.systolic.physicalRange, 40...300)
        XCTAssertEqual(RecordField.diastolic.physicalRange, 20...250)
        XCTAssertEqual(RecordField.restingHeartRate.physicalRange, 20...300)
        XCTAssertEqual(RecordField.temperature.physicalRange, 25...45)
        XCTAssertEqual(RecordField.spo2.physicalRange, 0...100)
        XCTAssertEqual(RecordField.weight.physicalRange, 0.5...700)
    }

    func testGlucoseOutOfRangeNamesFieldValueAndRange() {
        XCTAssertThrowsError(try DiabetesRecord(header: Fixtures.header(), bloodGlucose: 2500, unit: .mgPerDL)) { error in
            XCTAssertEqual(error as? RecordValidationError, .outOfRange(field: .bloodGlucose, value: 2500, range: 1...2000))
            XCTAssertEqual(
                String(describing: error), "blood glucose 2500 mg/dL is outside the possible range 1-2000 mg/dL")
        }
    }

    func testRangeIsCheckedInTheCanonicalUnit() {
        // 120 mmol/L is 2160 mg/dL: a mg/dL value typed as mmol/L.
        XCTAssertThrowsError(try DiabetesRecord(header: Fixtures.header(), bloodGlucose: 120, unit: .mmolPerL)) { error in
            XCTAssertEqual(error as? RecordValidationError, .outOfRange(field: .bloodGlucose, value: 2160, range: 1...2000))
        }
        // 98.6 entered as °C: a °F value in the wrong unit.
        XCTAssertThrowsError(try BiometricsRecord(header: Fixtures.header(), temperature: 98.6)) { error in
            XCTAssertEqual(error as? RecordValidationError, .outOfRange(field: .temperature, value: 98.6, range: 25...45))
            XCTAssertEqual(String(describing: error), "temperature 98.6 °C is outside the possible range 25-45 °C")
        }
        XCTAssertThrowsError(try WeightRecord(header: Fixtures.header(), weight: 1600, unit: .pounds)) { error in
            guard case .outOfRange(.weight, let kg, 0.5...700) = error as? RecordValidationError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(kg, 725.747792, accuracy: 1e-9)
        }
    }

    func testEachFieldRejectsValuesJustOutsideItsRangeAndAcceptsItsBounds() throws {
        let header = Fixtures.header()
        func biometrics(_ field: RecordField, _ value: Double) throws -> BiometricsRecord {
            switch field {
            case .systolic: try BiometricsRecord(header: header, systolic: value, diastolic: 20)
            case .diastolic: try BiometricsRecord(header: header, systolic: 300, diastolic: value)
            case .restingHeartRate: try BiometricsRecord(header: header, restingHeartRate: value)
            case .temperature: try BiometricsRecord(header: header, temperature: value)
            case .spo2: try BiometricsRecord(header: header, spo2: value)
            default: fatalError("not a biometrics field")
            }
        }
        for field in [RecordField.systolic, .diastolic, .restingHeartRate, .temperature, .spo2] {
            let range = field.physicalRange
            if field != .systolic && field != .diastolic {
                XCTAssertNoThrow(try biometrics(field, range.lowerBound), "\(field)")
            }
            XCTAssertNoThrow(try biometrics(field, range.upperBound - (field == .diastolic ? 1 : 0)), "\(field)")
            for bad in [range.lowerBound - 0.1, range.upperBound + 0.1, .nan, .infinity] {
                XCTAssertThrowsError(try biometrics(field, bad), "\(field) \(bad)") { error in
                    guard case .outOfRange(let reported, _, let reportedRange) = error as? RecordValidationError else {
                        return XCTFail("\(field) \(bad): \(error)")
                    }
                    XCTAssertEqual(reported, field)
                    XCTAssertEqual(reportedRange, range)
                }
            }
        }
        XCTAssertNoThrow(try WeightRecord(header: header, weight: 0.5))
        XCTAssertNoThrow(try WeightRecord(header: header, weight: 700))
        XCTAssertThrowsError(try WeightRecord(header: header, weight: 0.4))
        XCTAssertNoThrow(try DiabetesRecord(header: header, bloodGlucose: 1, unit: .mgPerDL))
        XCTAssertThrowsError(try DiabetesRecord(header: header, bloodGlucose: 0.9, unit: .mgPerDL))
        XCTAssertThrowsError(try DiabetesRecord(header: header, bloodGlucose: -5, unit: .mmolPerL))
    }

    func testNotANumberSaysSo() {
        XCTAssertThrowsError(try WeightRecord(header: Fixtures.header(), weight: .nan)) { error in
            XCTAssertEqual(String(describing: error), "weight is not a number outside the possible range 0.5-700 kg")
        }
    }

    func testBloodPressureNeedsBothValuesAndSystolicAboveDiastolic() {
        let header = Fixtures.header()
        XCTAssertThrowsError(try BiometricsRecord(header: header, systolic: 120)) { error in
            XCTAssertEqual(error as? RecordValidationError, .incompleteBloodPressure(missing: .diastolic))
        }
        XCTAssertThrowsError(try BiometricsRecord(header: header, diastolic: 80, restingHeartRate: 70)) { error in
            XCTAssertEqual(error as? RecordValidationError, .incompleteBloodPressure(missing: .systolic))
        }
        XCTAssertThrowsError(try BiometricsRecord(header: header, systolic: 80, diastolic: 80)) { error in
            XCTAssertEqual(error as? RecordValidationError, .systolicNotAboveDiastolic(systolic: 80, diastolic: 80))
            XCTAssertEqual(String(describing: error), "systolic 80 mmHg is not above diastolic 80 mmHg")
        }
        XCTAssertNoThrow(try BiometricsRecord(header: header, systolic: 81, diastolic: 80))
    }

    func testBiometricsWithoutAnyValueIsRefused() {
        XCTAssertThrowsError(try BiometricsRecord(header: Fixtures.header())) { error in
            XCTAssertEqual(error as? RecordValidationError, .noMeasurement(.biometrics))
        }
    }

    func testHeaderChecks() {
        XCTAssertThrowsError(
            try WeightRecord(header: Fixtures.header(activityID: ""), weight: 70)
        ) { error in XCTAssertEqual(error as? RecordValidationError, .emptyActivityID) }
        XCTAssertThrowsError(
            try WeightRecord(header: Fixtures.header(extras: ["peripheral_id": "5"]), weight: 70)
        ) { error in XCTAssertEqual(error as? RecordValidationError, .reservedExtrasKey("peripheral_id")) }
        XCTAssertThrowsError(
            try WeightRecord(header: Fixtures.header(extras: ["raw_data": "{}"]), weight: 70)
        ) { error in XCTAssertEqual(error as? RecordValidationError, .reservedExtrasKey("raw_data")) }
    }

    func testAnEditedHeaderIsCaughtByValidate() throws {
        var record = Record.weight(try WeightRecord(header: Fixtures.header(), weight: 70))
        XCTAssertNoThrow(try record.validate())
        record.header.extras[ExtrasKey.peripheralID] = "7"
        XCTAssertThrowsError(try record.validate())
    }

    func testRecordsKeepWhatTheDisplayShowed() throws {
        let glucose = try DiabetesRecord(header: Fixtures.header(), bloodGlucose: 5.6, unit: .mmolPerL)
        XCTAssertEqual(glucose.bloodGlucose, 100.8)
        XCTAssertEqual(glucose.displayedBloodGlucose, DisplayedValue(5.6, .mmolPerL))
        XCTAssertEqual(glucose.displayedBloodGlucose.text, "5.6")
        XCTAssertEqual(glucose.bloodGlucose(in: .mmolPerL), 5.6)

        let temperature = try BiometricsRecord(header: Fixtures.header(), temperature: 100.4, temperatureUnit: .fahrenheit)
        XCTAssertEqual(temperature.temperature, 38)
        XCTAssertEqual(temperature.displayedTemperature?.text, "100.4")

        let weight = try WeightRecord(header: Fixtures.header(), weight: 11, unit: .stones)
        XCTAssertEqual(weight.weight, 69.85322498)
        XCTAssertEqual(weight.displayedWeight.text, "11.0")
        XCTAssertEqual(weight.weight(in: .stones), 11)
    }

    func testVitalSnapRecordsAreNotValidatedByDefault() {
        let header = RecordHeader(timestamp: Fixtures.instant, utcOffset: .utc)
        XCTAssertFalse(header.validated)
        XCTAssertEqual(header.source, "vitalsnap")
        XCTAssertEqual(header.sourceName, "VitalSnap")
    }

    func testTimestampIsKeptToWholeSeconds() {
        var header = RecordHeader(timestamp: Date(timeIntervalSince1970: 100.9), utcOffset: .utc)
        XCTAssertEqual(header.timestamp, Date(timeIntervalSince1970: 100))
        header.timestamp = Date(timeIntervalSince1970: 200.5)
        XCTAssertEqual(header.timestamp, Date(timeIntervalSince1970: 200))
    }
}
