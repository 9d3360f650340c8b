import Foundation
import VitalSnapRecords
import XCTest

final class RecordJSONTests: XCTestCase {
    private func json(_ record: Record) throws -> String {
        String(decoding: try RecordJSON.encode(record), as: UTF8.self)
    }

    func testDiabetesJSON() throws {
        let record = Record.diabetes(try DiabetesRecord(
            header: RecordHeader(
                activityID: "3f1c2b9e-5d4a-4e7b-9c1d-2a6b8e0f4d13", timestamp: Fixtures.instant,
                utcOffset: UTCOffset(seconds: -18_000)!, originalSource: "VitalSnap Samples",
                device: "Glucose G2 (mmol/L)", peripheralID: 102, extras: ["ocr_confidence": "0.91"]),
            bloodGlucose: 5.6, unit: .mmolPerL, relationshipToMeal: .before))
        XCTAssertEqual(try json(record), """
            {"diabetes":{"activity_id":"3f1c2b9e-5d4a-4e7b-9c1d-2a6b8e0f4d13","blood_glucose":100.8,\
            "device":"Glucose G2 (mmol/L)","extras":{"ocr_confidence":"0.91","peripheral_id":102,\
            "raw_data":{"blood_glucose":{"unit":"mmol/L","value":"5.6"}}},"original_source":"VitalSnap Samples",\
            "relationship_to_meal":"before","source":"vitalsnap","source_name":"VitalSnap",\
            "timestamp":"2024-03-05T07:10:00-05:00","utc_offset":"-05:00","validated":false}}
            """)
    }

    func testBiometricsJSON() throws {
        let record = Record.biometrics(try BiometricsRecord(
            header: RecordHeader(
                activityID: "b1", timestamp: Date(timeIntervalSince1970: 1_700_520_330), utcOffset: .utc),
            systolic: 128, diastolic: 82, restingHeartRate: 71))
        // No extras at all: no metadata, no peripheral, and mmHg/bpm are shown as stored.
        XCTAssertEqual(try json(record), """
            {"biometrics":{"activity_id":"b1","diastolic":82,"resting_heartrate":71,"source":"vitalsnap",\
            "source_name":"VitalSnap","systolic":128,"timestamp":"2023-11-20T22:45:30+00:00","utc_offset":"+00:00",\
            "validated":false}}
            """)
    }

    func testBiometricsTemperatureAndSpO2JSON() throws {
        let record = Record.biometrics(try BiometricsRecord(
            header: Fixtures.header(activityID: "t1", offsetSeconds: 19_800, peripheralID: 1),
            temperature: 100.4, temperatureUnit: .fahrenheit, spo2: 97))
        XCTAssertEqual(try json(record), """
            {"biometrics":{"activity_id":"t1","extras":{"peripheral_id":1,\
            "raw_data":{"temperature":{"unit":"°F","value":"100.4"}}},"source":"vitalsnap","source_name":"VitalSnap",\
            "spo2":97,"temperature":38,"timestamp":"2024-03-05T17:40:00+05:30","utc_offset":"+05:30","validated":false}}
            """)
    }

    func testWeightJSON() throws {
        let record = Record.weight(try WeightRecord(
            header: RecordHeader(
                activityID: "w1", timestamp: Date(timeIntervalSince1970: 1_704_088_800),
                utcOffset: UTCOffset(seconds: 3600)!, peripheralID: 5),
            weight: 154.3, unit: .pounds))
        XCTAssertEqual(try json(record), """
            {"weight":{"activity_id":"w1","extras":{"peripheral_id":5,"raw_data":{"weight":{"unit":"lb",\
            "value":"154.3"}}},"source":"vitalsnap","source_name":"VitalSnap","timestamp":"2024-01-01T07:00:00+01:00",\
            "utc_offset":"+01:00","validated":false,"weight":69.989302691}}
            """)
    }

    func testRecordsSurviveTheTripThroughJSON() throws {
        let header = Fixtures.header(peripheralID: 9, extras: ["ocr_text": "5.6\n12:34", "comment": "after a run"])
        let records: [Record] = [
            .diabetes(try DiabetesRecord(header: header, bloodGlucose: 5.6, unit: .mmolPerL, relationshipToMeal: .fasting)),
            .diabetes(try DiabetesRecord(header: Fixtures.header(), bloodGlucose: 123, unit: .mgPerDL)),
            .biometrics(try BiometricsRecord(header: header, systolic: 141, diastolic: 92, restingHeartRate: 58)),
            .biometrics(try BiometricsRecord(header: header, temperature: 98.6, temperatureUnit: .fahrenheit)),
            .biometrics(try BiometricsRecord(header: header, restingHeartRate: 64, spo2: 96)),
            .weight(try WeightRecord(header: header, weight: 11.3, unit: .stones)),
            .weight(try WeightRecord(header: header, weight: 72.4)),
        ]
        for record in records {
            let data = try RecordJSON.encode(record)
            XCTAssertEqual(try RecordJSON.decode(data), record, String(decoding: data, as: UTF8.self))
        }
    }

    func testRecordsFromElsewhereDecode() throws {
        // No raw_data, integer utc_offset (Inform v2 form), a numeric extra, peripheral_id as text.
        let data = Data("""
            {"diabetes":{"activity_id":"x","blood_glucose":150,"source":"other","timestamp":"2024-03-05T12:10:00Z",\
            "utc_offset":-18000,"extras":{"peripheral_id":"9","battery":87}}}
            """.utf8)
        let record = try XCTUnwrap(RecordJSON.decode(data).diabetes)
        XCTAssertEqual(record.bloodGlucose, 150)
        XCTAssertEqual(record.displayedBloodGlucose, DisplayedValue(150, .mgPerDL))
        XCTAssertEqual(record.header.utcOffset.description, "-05:00")
        XCTAssertEqual(record.header.timestamp, Fixtures.instant)
        XCTAssertEqual(record.header.peripheralID, 9)
        XCTAssertEqual(record.header.extras, ["battery": "87"])
        XCTAssertFalse(record.header.validated)
    }

    func testImpossibleValuesAreRefusedWhenDecoding() {
        let data = Data("""
            {"weight":{"activity_id":"w","source":"vitalsnap","timestamp":"2024-03-05T12:10:00+00:00","weight":7000}}
            """.utf8)
        XCTAssertThrowsError(try RecordJSON.decode(data)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.debugDescription, "weight 7000 kg is outside the possible range 0.5-700 kg")
        }
    }

    func testEnvelopeMustNameOneKnownType() {
        for body in [#"{"tobacco_cessation":{}}"#, #"{}"#] {
            XCTAssertThrowsError(try RecordJSON.decode(Data(body.utf8)), body)
        }
        let noOffset = #"{"weight":{"activity_id":"w","source":"s","timestamp":"2024-03-05T12:10:00","weight":70}}"#
        XCTAssertThrowsError(try RecordJSON.decode(Data(noOffset.utf8)))
    }

    func testAWeightsBodyCompositionGoesThereAndBackAndIsChecked() throws {
        let header = RecordHeader(activityID: "w1", timestamp: Date(timeIntervalSince1970: 1_700_000_000), utcOffset: .utc)
        let record = Record.weight(try WeightRecord(header: header, weight: 74.8, height: 178, freeMass: 58.1, fatPercent: 22.4, bmi: 23.6))
        let json = try RecordJSON.encode(record)
        let text = String(decoding: json, as: UTF8.self)
        for field in ["\"height\":178", "\"free_mass\":58.1", "\"fat_percent\":22.4", "\"bmi\":23.6"] {
            XCTAssertTrue(text.contains(field), text)
        }
        XCTAssertEqual(try RecordJSON.decode(json), record)
        XCTAssertThrowsError(try WeightRecord(header: header, weight: 74.8, fatPercent: 224)) { error in
            guard case .outOfRange(field: .fatPercent, _, _) = error as? RecordValidationError else { return XCTFail("\(error)") }
        }
    }

    func testRecordTypeNames() {
        XCTAssertEqual(
            RecordType.allCases.map(\.rawValue),
            ["diabetes", "biometrics", "weight", "routine", "fitness", "nutrition", "sleep"])
        XCTAssertEqual(RecordField.allCases.map(\.rawValue), [
            "blood_glucose", "systolic", "diastolic", "resting_heartrate", "temperature", "spo2", "weight",
            "height", "free_mass", "fat_percent", "bmi", "steps", "distance", "floors", "elevation", "calories_burned", "active_duration", "duration", "calories",
            "carbohydrates", "fat", "fiber", "protein", "sodium", "water",
            "total_sleep", "awake", "deep", "light", "rem", "times_woken",
        ])
    }
}
