import Foundation
import XCTest

@testable import VitalSnapRecords

/// The record writer writes what Foundation's `JSONEncoder` (sorted keys, slashes unescaped) writes for the same
/// fields, byte for byte, for every kind of record and awkward value.
final class RecordJSONWriterTests: XCTestCase {
    /// Foundation's encoder as `RecordJSON` configures it.
    private func foundation(_ value: some Encodable) throws -> String {
        String(decoding: try RecordJSON.makeEncoder().encode(value), as: UTF8.self)
    }

    private func written(_ record: Record) throws -> String {
        String(decoding: try RecordJSON.encode(record), as: UTF8.self)
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
            XCTAssertEqual(try written(record), try foundation(record))
            XCTAssertEqual(try RecordJSON.decode(RecordJSON.encode(record)), record)
        }
    }

    /// Awkward values, written through the same field list into both.
    private static func writeAwkward(into fields: inout some RecordFieldWriter) throws {
        for (index, number) in [0, -0.5, 1e-05, 1e21, 123456789.125, 18.015588, 2.0e-7, -40, 5e-324, 1e16, 0.1 + 0.2].enumerated() {
            try fields.write(number, forKey: "number\(index)")
        }
        for (index, integer) in [0, -1, Int.max, Int.min].enumerated() { try fields.write(integer, forKey: "integer\(index)") }
        try fields.write("slash/quote\"control\u{1F}\u{0}back\\slash\r\u{8}\u{C}é🩸", forKey: "text")
        try fields.write("", forKey: "empty")
        try fields.write(true, forKey: "yes")
        try fields.write(false, forKey: "no")
        try fields.writeIfPresent(nil as String?, forKey: "missing")
        try fields.writeObject(forKey: "b") { nested in
            try nested.write(1, forKey: "z")
            try nested.writeObject(forKey: "a") { _ in }
            try nested.write("x", forKey: "Z")
        }
        try fields.write("key \"quoted\"", forKey: "a \"quoted\" key/\n")
        try fields.write("after", forKey: "B")
    }

    private struct Awkward: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            try RecordJSONWriterTests.writeAwkward(into: &container)
        }
    }

    func testNumbersStringsKeysAndNestedObjectsMatch() throws {
        var writer = RecordJSONWriter()
        try Self.writeAwkward(into: &writer)
        XCTAssertEqual(String(decoding: writer.object(), as: UTF8.self), try foundation(Awkward()))
    }

    func testNotANumberIsRefusedAsFoundationRefusesIt() {
        var writer = RecordJSONWriter()
        XCTAssertThrowsError(try writer.write(Double.nan, forKey: "x"))
        XCTAssertThrowsError(try writer.write(-Double.infinity, forKey: "x"))
        XCTAssertThrowsError(try foundation([Double.nan]))
        XCTAssertEqual(writer.object(), Array("{}".utf8))
    }
}
