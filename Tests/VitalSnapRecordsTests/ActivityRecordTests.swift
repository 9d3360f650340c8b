import Foundation
import VitalSnapRecords
import XCTest

/// Routine, fitness, nutrition and sleep records: their JSON and the values they refuse.
final class ActivityRecordTests: XCTestCase {
    private let header = Fixtures.header()

    /// The keys of the record object inside `{"<type>": {...}}`, and that the envelope names `type`.
    private func recordKeys(_ record: Record, type: String) throws -> Set<String> {
        let data = try RecordJSON.encode(record)
        let envelope = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Array(envelope.keys), [type])
        let object = try XCTUnwrap(envelope[type] as? [String: Any])
        return Set(object.keys)
    }

    private func object(_ record: Record) throws -> [String: Any] {
        let data = try RecordJSON.encode(record)
        let envelope = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(envelope[record.type.rawValue] as? [String: Any])
    }

    /// What every record object carries from its header (no extras: the fixture header has none).
    private let headerKeys: Set<String> = [
        "activity_id", "timestamp", "utc_offset", "source", "source_name", "validated",
    ]

    private func assertRefused<R: HealthRecord>(
        _ make: @autoclosure () throws -> R, _ expected: RecordValidationError,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try make(), file: file, line: line) { error in
            XCTAssertEqual(error as? RecordValidationError, expected, file: file, line: line)
        }
    }

    /// Asserts `make` throws `outOfRange` for `field` with a NaN value (NaN is never equal, so matched by hand).
    private func assertRefusesNaN<R: HealthRecord>(
        _ field: RecordField, _ make: @autoclosure () throws -> R,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try make(), file: file, line: line) { error in
            guard case .outOfRange(let reported, let value, let range) = error as? RecordValidationError else {
                return XCTFail("\(error)", file: file, line: line)
            }
            XCTAssertEqual(reported, field, file: file, line: line)
            XCTAssertTrue(value.isNaN, file: file, line: line)
            XCTAssertEqual(range, field.physicalRange, file: file, line: line)
        }
    }

    private func assertDecodingFails(_ json: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try RecordJSON.decode(Data(json.utf8)), file: file, line: line) { error in
            guard case DecodingError.dataCorrupted(let context) = error else {
                return XCTFail("\(error)", file: file, line: line)
            }
            XCTAssertEqual(context.debugDescription, message, file: file, line: line)
        }
    }

    private static let headerJSON =
        #""activity_id":"a","source":"vitalsnap","timestamp":"2024-03-05T07:10:00-05:00""#

    // MARK: - Round trips

    func testRecordsSurviveTheTripThroughJSON() throws {
        let withExtras = Fixtures.header(peripheralID: 3, extras: ["comment": "felt fine"])
        let records: [Record] = [
            .routine(try RoutineRecord(
                header: withExtras, steps: 10_432, distance: 7_850.5, floors: 12, elevation: 36.6,
                caloriesBurned: 2_310.25, activeDuration: 3_720)),
            .routine(try RoutineRecord(header: header, steps: 0)),
            .fitness(try FitnessRecord(
                header: withExtras, activityType: "Running", intensity: .vigorous,
                startTime: Fixtures.instant.addingTimeInterval(-2_700.6), distance: 8_046.7, duration: 2_700,
                calories: 612)),
            .fitness(try FitnessRecord(header: header, activityType: "Yoga", intensity: .low, duration: 1_800)),
            .nutrition(try NutritionRecord(
                header: withExtras, calories: 640, carbohydrates: 72.5, fat: 21, fiber: 9.2, protein: 38,
                sodium: 1_150, water: 500, meal: .lunch)),
            .nutrition(try NutritionRecord(header: header, water: 250)),
            .sleep(try SleepRecord(
                header: withExtras, totalSleep: 25_200, awake: 1_800, deep: 5_400, light: 14_400, rem: 5_400,
                timesWoken: 3)),
            .sleep(try SleepRecord(header: header, timesWoken: 0)),
        ]
        for record in records {
            let data = try RecordJSON.encode(record)
            let decoded = try RecordJSON.decode(data)
            XCTAssertEqual(decoded, record, String(decoding: data, as: UTF8.self))
            XCTAssertEqual(decoded.type, record.type)
        }
    }

    func testAccessorsMatchTheCase() throws {
        let routine = Record.routine(try RoutineRecord(header: header, steps: 5))
        let fitness = Record.fitness(try FitnessRecord(header: header, calories: 5))
        let nutrition = Record.nutrition(try NutritionRecord(header: header, protein: 5))
        let sleep = Record.sleep(try SleepRecord(header: header, totalSleep: 5))
        XCTAssertEqual(routine.routine?.steps, 5)
        XCTAssertEqual(fitness.fitness?.calories, 5)
        XCTAssertEqual(nutrition.nutrition?.protein, 5)
        XCTAssertEqual(sleep.sleep?.totalSleep, 5)
        XCTAssertNil(routine.sleep)
        XCTAssertNil(sleep.routine)
        XCTAssertNil(fitness.nutrition)
        XCTAssertNil(nutrition.fitness)
        XCTAssertEqual([routine, fitness, nutrition, sleep].map(\.type), [.routine, .fitness, .nutrition, .sleep])
    }

    func testHeaderCanBeReplacedThroughRecord() throws {
        var record = Record.sleep(try SleepRecord(header: header, totalSleep: 600))
        record.header = Fixtures.header(activityID: "replaced")
        XCTAssertEqual(record.activityID, "replaced")
        XCTAssertEqual(record.sleep?.totalSleep, 600)
        record.header.extras[ExtrasKey.rawData] = "{}"
        XCTAssertThrowsError(try record.validate())
    }

    // MARK: - JSON key names

    func testRoutineKeys() throws {
        let record = Record.routine(try RoutineRecord(
            header: header, steps: 1, distance: 1, floors: 1, elevation: 1, caloriesBurned: 1, activeDuration: 1))
        XCTAssertEqual(
            try recordKeys(record, type: "routine"),
            headerKeys.union(["steps", "distance", "floors", "elevation", "calories_burned", "active_duration"]))
    }

    func testFitnessKeys() throws {
        let record = Record.fitness(try FitnessRecord(
            header: header, activityType: "Cycling", intensity: .moderate,
            startTime: Fixtures.instant.addingTimeInterval(-2_400), distance: 1, duration: 1, calories: 1))
        XCTAssertEqual(
            try recordKeys(record, type: "fitness"),
            headerKeys.union(["type", "intensity", "start_time", "distance", "duration", "calories"]))
        let fields = try object(record)
        XCTAssertEqual(fields["type"] as? String, "Cycling")
        XCTAssertEqual(fields["intensity"] as? String, "moderate")
        // The header's format and offset: 2024-03-05 12:10:00 UTC less 40 minutes, at -05:00.
        XCTAssertEqual(fields["start_time"] as? String, "2024-03-05T06:30:00-05:00")
        XCTAssertEqual(fields["timestamp"] as? String, "2024-03-05T07:10:00-05:00")
    }

    func testNutritionKeys() throws {
        let record = Record.nutrition(try NutritionRecord(
            header: header, calories: 1, carbohydrates: 1, fat: 1, fiber: 1, protein: 1, sodium: 1, water: 1,
            meal: .breakfast))
        XCTAssertEqual(
            try recordKeys(record, type: "nutrition"),
            headerKeys.union(["calories", "carbohydrates", "fat", "fiber", "protein", "sodium", "water", "meal"]))
        XCTAssertEqual(try object(record)["meal"] as? String, "breakfast")
    }

    func testSleepKeys() throws {
        let record = Record.sleep(try SleepRecord(
            header: header, totalSleep: 3, awake: 1, deep: 1, light: 1, rem: 1, timesWoken: 1))
        XCTAssertEqual(
            try recordKeys(record, type: "sleep"),
            headerKeys.union(["total_sleep", "awake", "deep", "light", "rem", "times_woken"]))
    }

    func testAbsentMeasurementsAreLeftOut() throws {
        let record = Record.fitness(try FitnessRecord(header: header, duration: 60))
        XCTAssertEqual(try recordKeys(record, type: "fitness"), headerKeys.union(["duration"]))
    }

    func testExactRoutineJSON() throws {
        let record = Record.routine(try RoutineRecord(
            header: Fixtures.header(activityID: "r1"), steps: 8_012, distance: 6_100.5, caloriesBurned: 2_104))
        XCTAssertEqual(String(decoding: try RecordJSON.encode(record), as: UTF8.self), """
            {"routine":{"activity_id":"r1","calories_burned":2104,"distance":6100.5,"source":"vitalsnap",\
            "source_name":"VitalSnap","steps":8012,"timestamp":"2024-03-05T07:10:00-05:00","utc_offset":"-05:00",\
            "validated":false}}
            """)
    }

    func testValidicSpellingsDecode() throws {
        let routine = try XCTUnwrap(RecordJSON.decode(Data("""
            {"routine":{\(Self.headerJSON),"steps":9001,"calories_burned":1900.5,"active_duration":2400,\
            "floors":4,"elevation":12.2,"distance":6500}}
            """.utf8)).routine)
        XCTAssertEqual(routine.steps, 9_001)
        XCTAssertEqual(routine.caloriesBurned, 1_900.5)
        XCTAssertEqual(routine.activeDuration, 2_400)
        XCTAssertEqual(routine.floors, 4)
        XCTAssertEqual(routine.elevation, 12.2)
        XCTAssertEqual(routine.distance, 6_500)

        let fitness = try XCTUnwrap(RecordJSON.decode(Data("""
            {"fitness":{\(Self.headerJSON),"type":"Swimming","intensity":"low","start_time":"2024-03-05T11:30:00Z",\
            "duration":1800}}
            """.utf8)).fitness)
        XCTAssertEqual(fitness.activityType, "Swimming")
        XCTAssertEqual(fitness.intensity, .low)
        XCTAssertEqual(fitness.startTime, Fixtures.instant.addingTimeInterval(-2_400))
        XCTAssertEqual(fitness.duration, 1_800)
        XCTAssertNil(fitness.distance)

        let nutrition = try XCTUnwrap(RecordJSON.decode(Data("""
            {"nutrition":{\(Self.headerJSON),"meal":"snack","water":330,"sodium":140}}
            """.utf8)).nutrition)
        XCTAssertEqual(nutrition.meal, .snack)
        XCTAssertEqual(nutrition.water, 330)
        XCTAssertEqual(nutrition.sodium, 140)

        let sleep = try XCTUnwrap(RecordJSON.decode(Data("""
            {"sleep":{\(Self.headerJSON),"total_sleep":27000,"times_woken":2}}
            """.utf8)).sleep)
        XCTAssertEqual(sleep.totalSleep, 27_000)
        XCTAssertEqual(sleep.timesWoken, 2)
    }

    // MARK: - Values refused

    func testOutOfRangeValuesAreRefused() {
        assertRefused(
            try RoutineRecord(header: header, steps: 250_000),
            .outOfRange(field: .steps, value: 250_000, range: 0...200_000))
        assertRefused(
            try RoutineRecord(header: header, activeDuration: 86_401),
            .outOfRange(field: .activeDuration, value: 86_401, range: 0...86_400))
        assertRefused(
            try FitnessRecord(header: header, distance: 1_000_001),
            .outOfRange(field: .distance, value: 1_000_001, range: 0...1_000_000))
        // 8,000 kcal entered in kJ.
        assertRefused(
            try FitnessRecord(header: header, calories: 33_472),
            .outOfRange(field: .calories, value: 33_472, range: 0...20_000))
        assertRefused(
            try NutritionRecord(header: header, fat: 3_000),
            .outOfRange(field: .fat, value: 3_000, range: 0...2_500))
        assertRefused(
            try NutritionRecord(header: header, water: 25_000),
            .outOfRange(field: .water, value: 25_000, range: 0...20_000))
        assertRefused(
            try SleepRecord(header: header, rem: 90_000),
            .outOfRange(field: .rem, value: 90_000, range: 0...86_400))
        assertRefused(
            try SleepRecord(header: header, timesWoken: 3_000),
            .outOfRange(field: .timesWoken, value: 3_000, range: 0...2_880))
    }

    func testBoundsAreAccepted() {
        XCTAssertNoThrow(try RoutineRecord(header: header, steps: 200_000, activeDuration: 86_400))
        XCTAssertNoThrow(try FitnessRecord(header: header, distance: 1_000_000, duration: 604_800, calories: 20_000))
        XCTAssertNoThrow(try NutritionRecord(header: header, calories: 0, fat: 2_500, water: 20_000))
        XCTAssertNoThrow(try SleepRecord(header: header, totalSleep: 86_400, timesWoken: 2_880))
        XCTAssertThrowsError(try FitnessRecord(header: header, duration: 604_801))
    }

    func testEveryActivityFieldRefusesInfinityAndStartsAtZero() throws {
        let activityFields: [RecordField] = [
            .steps, .distance, .floors, .elevation, .caloriesBurned, .activeDuration, .duration, .calories,
            .carbohydrates, .fat, .fiber, .protein, .sodium, .water, .totalSleep, .awake, .deep, .light, .rem,
            .timesWoken,
        ]
        for field in activityFields {
            XCTAssertEqual(field.physicalRange.lowerBound, 0, "\(field)")
            XCTAssertGreaterThan(field.physicalRange.upperBound, 0, "\(field)")
            XCTAssertNoThrow(try field.check(0), "\(field)")
            XCTAssertNoThrow(try field.check(field.physicalRange.upperBound), "\(field)")
            for bad in [-0.001, field.physicalRange.upperBound + 1, .infinity, -.infinity, .nan] {
                XCTAssertThrowsError(try field.check(bad), "\(field) \(bad)")
            }
        }
    }

    func testNegativeValuesAreRefused() {
        assertRefused(
            try RoutineRecord(header: header, steps: 100, distance: -5),
            .outOfRange(field: .distance, value: -5, range: 0...1_000_000))
        assertRefused(
            try FitnessRecord(header: header, duration: -60),
            .outOfRange(field: .duration, value: -60, range: 0...604_800))
        assertRefused(
            try NutritionRecord(header: header, calories: 300, protein: -1),
            .outOfRange(field: .protein, value: -1, range: 0...5_000))
        assertRefused(
            try SleepRecord(header: header, totalSleep: 3_600, awake: -10),
            .outOfRange(field: .awake, value: -10, range: 0...86_400))
    }

    func testNaNIsRefused() {
        assertRefusesNaN(.floors, try RoutineRecord(header: header, floors: .nan))
        assertRefusesNaN(.calories, try FitnessRecord(header: header, duration: 60, calories: .nan))
        assertRefusesNaN(.sodium, try NutritionRecord(header: header, sodium: .nan))
        assertRefusesNaN(.deep, try SleepRecord(header: header, totalSleep: 3_600, deep: .nan))
    }

    func testRecordsWithoutAMeasurementAreRefused() {
        assertRefused(try RoutineRecord(header: header), .noMeasurement(.routine))
        // A name, an intensity and a start say what was done, not how much.
        assertRefused(
            try FitnessRecord(header: header, activityType: "Running", intensity: .moderate, startTime: Fixtures.instant),
            .noMeasurement(.fitness))
        assertRefused(try NutritionRecord(header: header, meal: .dinner), .noMeasurement(.nutrition))
        assertRefused(try SleepRecord(header: header), .noMeasurement(.sleep))
    }

    func testSleepStagesCannotExceedTotalSleep() {
        assertRefused(
            try SleepRecord(header: header, totalSleep: 20_000, deep: 8_000, light: 9_000, rem: 3_002),
            .sleepStagesExceedTotal(stages: 20_002, totalSleep: 20_000))
        // One second over is rounding.
        XCTAssertNoThrow(try SleepRecord(header: header, totalSleep: 20_000, deep: 8_000, light: 9_000, rem: 3_001))
        // Stages need not cover all of it.
        XCTAssertNoThrow(try SleepRecord(header: header, totalSleep: 20_000, deep: 8_000))
    }

    func testSleepAndAwakeCannotExceedADay() {
        assertRefused(
            try SleepRecord(header: header, totalSleep: 80_000, awake: 7_000),
            .sleepLongerThanADay(seconds: 87_000))
        XCTAssertNoThrow(try SleepRecord(header: header, totalSleep: 80_000, awake: 6_400))
        // Without a total, the stages count as the sleep.
        assertRefused(
            try SleepRecord(header: header, awake: 10_000, deep: 40_000, light: 40_000),
            .sleepLongerThanADay(seconds: 90_000))
    }

    func testMessagesSayWhatIsWrong() {
        XCTAssertEqual(
            RecordValidationError.outOfRange(field: .steps, value: 250_000, range: 0...200_000).description,
            "steps 250000 is outside the possible range 0-200000")
        XCTAssertEqual(
            RecordValidationError.outOfRange(field: .water, value: -5, range: 0...20_000).description,
            "water -5 mL is outside the possible range 0-20000 mL")
        XCTAssertEqual(
            RecordValidationError.outOfRange(field: .totalSleep, value: .nan, range: 0...86_400).description,
            "total sleep is not a number outside the possible range 0-86400 s")
        XCTAssertEqual(
            RecordValidationError.sleepStagesExceedTotal(stages: 20_002, totalSleep: 20_000).description,
            "deep, light and REM sleep add up to 20002 s, more than the total sleep of 20000 s")
        XCTAssertEqual(
            RecordValidationError.sleepLongerThanADay(seconds: 87_000).description,
            "sleep and time awake add up to 87000 s, more than the 86400 s of a day")
        XCTAssertEqual(RecordValidationError.noMeasurement(.nutrition).description, "the nutrition record has no measurement")
    }

    // MARK: - Decoding refuses impossible records

    func testImpossibleValuesAreRefusedWhenDecoding() {
        assertDecodingFails(
            #"{"routine":{\#(Self.headerJSON),"steps":-20}}"#,
            "steps -20 is outside the possible range 0-200000")
        assertDecodingFails(
            #"{"fitness":{\#(Self.headerJSON),"type":"Running","duration":700000}}"#,
            "duration 700000 s is outside the possible range 0-604800 s")
        assertDecodingFails(
            #"{"nutrition":{\#(Self.headerJSON),"calories":25000,"meal":"dinner"}}"#,
            "calories 25000 kcal is outside the possible range 0-20000 kcal")
        assertDecodingFails(
            #"{"sleep":{\#(Self.headerJSON),"total_sleep":3600,"deep":2000,"light":2000}}"#,
            "deep, light and REM sleep add up to 4000 s, more than the total sleep of 3600 s")
        assertDecodingFails(
            #"{"sleep":{\#(Self.headerJSON)}}"#,
            "the sleep record has no measurement")
    }

    func testMalformedFieldsAreRefusedWhenDecoding() {
        for body in [
            #"{"fitness":{\#(Self.headerJSON),"duration":60,"start_time":"2024-03-05T06:30:00"}}"#,
            #"{"fitness":{\#(Self.headerJSON),"duration":60,"intensity":"extreme"}}"#,
            #"{"nutrition":{\#(Self.headerJSON),"calories":60,"meal":"brunch"}}"#,
            #"{"routine":{\#(Self.headerJSON),"steps":"many"}}"#,
        ] {
            XCTAssertThrowsError(try RecordJSON.decode(Data(body.utf8)), body)
        }
    }
}
