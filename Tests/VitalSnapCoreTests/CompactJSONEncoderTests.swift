import Foundation
import XCTest

@testable import VitalSnapCore

/// The fast encoder writes what Foundation's `JSONEncoder` (sorted keys, slashes unescaped) writes, byte for byte,
/// for every kind of record and awkward value.
final class CompactJSONEncoderTests: XCTestCase {
    /// Foundation's encoder as `RecordJSON` configures it.
    private func foundation(_ value: some Encodable) throws -> String {
        String(decoding: try RecordJSON.makeEncoder().encode(value), as: UTF8.self)
    }

    private func compact(_ value: some Encodable) throws -> String {
        String(decoding: try CompactJSONEncoder().encode(value), as: UTF8.self)
    }

    func testEveryRecordTypeIsWrittenAsFoundationWritesIt() throws {
        let instant = Date(timeIntervalSince1970: 1_709_640_600)
        let offset = try XCTUnwrap(UTCOffset(seconds: -5 * 3600))
        let plain = RecordHeader(activityID: "a", timestamp: instant, utcOffset: offset)
        let rich = RecordHeader(
            activityID: "0b659f6c-be04-5c82-b7e5-b51f48572a08", timestamp: instant, utcOffset: try XCTUnwrap(UTCOffset(seconds: 5 * 3600 + 1800)),
            originalSource: "Sam’s Apple\u{A0}Watch", device: "A&D \"UA-651\" / BLE", peripheralID: 30, validated: true,
            extras: ["comment": "line one\nline two\ttab \\ back", "out_of_range": "High", "intermediary_source": "Apple Health",
                     "bell": "\u{07}", "emoji": "🩸"])
        let records: [Record] = [
            .diabetes(try DiabetesRecord(header: rich, bloodGlucose: 5.6, unit: .mmolPerL, relationshipToMeal: .before)),
            .diabetes(try DiabetesRecord(header: plain, bloodGlucose: 98, unit: .mgPerDL)),
            .biometrics(try BiometricsRecord(header: rich, systolic: 128, diastolic: 82, restingHeartRate: 66)),
            .biometrics(try BiometricsRecord(header: plain, temperature: 98.6, temperatureUnit: .fahrenheit, spo2: 97)),
            .weight(try WeightRecord(header: rich, weight: 165, unit: .pounds, height: 177.8, freeMass: 58.1, fatPercent: 22.4, bmi: 24.4)),
            .weight(try WeightRecord(header: plain, weight: 0.5)),
            .routine(try RoutineRecord(header: rich, steps: 10_432, distance: 7_850.5, floors: 12, caloriesBurned: 2_310.25, activeDuration: 3_720)),
            .fitness(try FitnessRecord(
                header: rich, activityType: "Running", intensity: .vigorous, startTime: instant.addingTimeInterval(-2_700),
                distance: 0.4971749504535062 * 1609.344, duration: 5.19412346680959 * 60, calories: 48.745)),
            .nutrition(try NutritionRecord(header: plain, calories: 640, carbohydrates: 72.5, sodium: 0.001, water: 19_999.5, meal: .lunch)),
            .sleep(try SleepRecord(header: rich, totalSleep: 25_200, awake: 1_800, deep: 5_400, light: 14_400, rem: 5_400, timesWoken: 3)),
        ]
        for record in records {
            XCTAssertEqual(try compact(record), try foundation(record))
            XCTAssertEqual(try RecordJSON.decode(CompactJSONEncoder().encode(record)), record)
        }
    }

    func testNumbersStringsArraysAndNullsMatch() throws {
        struct Sample: Encodable {
            var numbers: [Double] = [0, -0.5, 1e-05, 1e21, 123456789.125, 18.015588, 2.0e-7, -40, 5e-324]
            var integers: [Int] = [0, -1, Int.max]
            var text = "slash/quote\"control\u{1F}"
            var flag = true
            var missing: String? = nil
            var nested: [String: [String: Int]] = ["b": ["z": 1, "a": 2], "a": [:]]
        }
        XCTAssertEqual(try compact(Sample()), try foundation(Sample()))
    }

    func testNotANumberIsRefusedAsFoundationRefusesIt() {
        XCTAssertThrowsError(try CompactJSONEncoder().encode([Double.nan]))
        XCTAssertThrowsError(try CompactJSONEncoder().encode(["x": Double.infinity]))
    }
}
