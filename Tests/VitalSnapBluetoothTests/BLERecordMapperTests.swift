import Foundation
import VitalSnapRecords
import XCTest
@testable import VitalSnapBluetooth

/// From the bytes a device sends to the records queued for upload: units, times on the device's clock, the
/// extras Validic's SDK writes, readings that give no record and why, and activity IDs that stay the same when a
/// stored reading is fetched again.
final class BLERecordMapperTests: XCTestCase {
    private let catalog = try! BLEPeripheralCatalog.builtIn()
    private let address = "C0:26:DA:01:02:03"
    /// The device's clock keeps US Eastern standard time.
    private let eastern = UTCOffset(seconds: -5 * 3600)!
    /// 2024-11-26 16:00:00 UTC, when the values arrive.
    private let received = Date(timeIntervalSince1970: 1_732_636_800)

    private func mapper(_ id: Int, address: String? = nil) throws -> BLERecordMapper {
        BLERecordMapper(peripheral: try XCTUnwrap(catalog[id]), deviceAddress: address ?? self.address, deviceUTCOffset: eastern)
    }

    private func bytes(_ hex: String) -> [UInt8] {
        hex.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    private func instant(_ text: String) throws -> Date {
        try XCTUnwrap(RecordTimestamp.parse(text)).date
    }

    private func little16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// A Glucose Measurement: 120 mg/dL (0.0012 kg/L, SFLOAT C00C) from a fingertip by default, taken
    /// 2024-11-26 08:30:00 on the meter's clock.
    private func glucose(
        sequence: UInt16 = 7, date: [Int] = [2024, 11, 26, 8, 30, 0], offsetMinutes: Int16? = nil,
        concentration: UInt16? = 0xC00C, molar: Bool = false, type: UInt8 = 1, location: UInt8 = 1, status: UInt16? = nil
    ) -> [UInt8] {
        var flags: UInt8 = 0
        if offsetMinutes != nil { flags |= 0x01 }
        if concentration != nil { flags |= 0x02 }
        if molar { flags |= 0x04 }
        if status != nil { flags |= 0x08 }
        var out = [flags] + little16(sequence) + little16(UInt16(date[0])) + date[1...].map { UInt8($0) }
        if let offsetMinutes { out += little16(UInt16(bitPattern: offsetMinutes)) }
        if let concentration { out += little16(concentration) + [location << 4 | type] }
        if let status { out += little16(status) }
        return out
    }

    /// A Glucose Measurement Context with only the meal field.
    private func mealContext(sequence: UInt16 = 7, meal: UInt8) -> [UInt8] {
        [0x02] + little16(sequence) + [meal]
    }

    private func outcome(
        _ id: Int, _ characteristic: String, _ payload: [UInt8], context: [UInt8]? = nil, at time: Date? = nil
    ) throws -> BLEReadingOutcome {
        try mapper(id).records(characteristic: characteristic, payload: payload, context: context, receivedAt: time ?? received)
    }

    private func diabetes(_ outcome: BLEReadingOutcome, file: StaticString = #filePath, line: UInt = #line) throws -> DiabetesRecord {
        try XCTUnwrap(outcome.record?.diabetes, "\(outcome)", file: file, line: line)
    }

    private func biometrics(_ outcome: BLEReadingOutcome, file: StaticString = #filePath, line: UInt = #line) throws -> BiometricsRecord {
        try XCTUnwrap(outcome.record?.biometrics, "\(outcome)", file: file, line: line)
    }

    // MARK: Glucose

    func testTheReferenceVectorsThirtyKilogramsPerLitreIsRefusedAsImpossible() throws {
        // Nordic's vector: 30.0 kg/L is 3,000,000 mg/dL, a test value no blood has.
        let result = try outcome(15, "2A18", bytes("1B 01 00 E3 07 02 1B 0B 0A 1E FB FF 1E 00 12 05 01"))
        guard case .skipped(.invalid(.outOfRange(let field, let value, _))) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(field, .bloodGlucose)
        XCTAssertEqual(value, 3_000_000)
    }

    func testKilogramsPerLitreBecomeMilligramsPerDecilitre() throws {
        let record = try diabetes(try outcome(15, "2A18", glucose()))
        XCTAssertEqual(record.bloodGlucose, 120)
        XCTAssertEqual(record.displayedBloodGlucose.unit, .mgPerDL)
        XCTAssertEqual(record.displayedBloodGlucose.value, 120)
        // 0.00087 kg/L (SFLOAT B057, 87 x 10^-5) is 87 mg/dL exactly, with no binary remainder.
        XCTAssertEqual(try diabetes(try outcome(15, "2A18", glucose(concentration: 0xB057))).bloodGlucose, 87)
    }

    func testMolesPerLitreAreKeptAsMillimolesPerLitre() throws {
        // 0.0065 mol/L (SFLOAT C041) is 6.5 mmol/L on the display, 117 mg/dL by Core's factor of 18.
        let record = try diabetes(try outcome(15, "2A18", glucose(concentration: 0xC041, molar: true)))
        XCTAssertEqual(record.displayedBloodGlucose.unit, .mmolPerL)
        XCTAssertEqual(record.displayedBloodGlucose.value, 6.5)
        XCTAssertEqual(record.bloodGlucose, 117, accuracy: 1e-9)
    }

    func testTheTimeIsTheBaseTimePlusItsOffsetOnTheDevicesClock() throws {
        let plain = try diabetes(try outcome(15, "2A18", glucose()))
        XCTAssertEqual(plain.timestamp, try instant("2024-11-26T08:30:00-05:00"))
        XCTAssertEqual(plain.utcOffset, eastern)
        XCTAssertEqual(plain.header.timestampText, "2024-11-26T08:30:00-05:00")
        let later = try diabetes(try outcome(15, "2A18", glucose(offsetMinutes: 45)))
        XCTAssertEqual(later.timestamp, try instant("2024-11-26T09:15:00-05:00"))
        // Back across midnight and a month's end.
        let earlier = try diabetes(try outcome(15, "2A18", glucose(date: [2024, 12, 1, 0, 10, 0], offsetMinutes: -20)))
        XCTAssertEqual(earlier.header.timestampText, "2024-11-30T23:50:00-05:00")
        // The same bytes on a clock kept at +05:30 name another instant.
        let india = BLERecordMapper(peripheral: try XCTUnwrap(catalog[15]), deviceAddress: address, deviceUTCOffset: UTCOffset(seconds: 19_800)!)
        let record = try diabetes(india.records(characteristic: "2A18", payload: glucose(), context: nil, receivedAt: received))
        XCTAssertEqual(record.timestamp, try instant("2024-11-26T08:30:00+05:30"))
    }

    func testAReadingWithoutAKnownDateIsSkipped() throws {
        XCTAssertEqual(
            try outcome(15, "2A18", glucose(date: [0, 11, 26, 8, 30, 0])).skipped, .measurementTimeUnknown("????-11-26 08:30:00"))
        // 30 February decodes (days run to 31) but is no date.
        XCTAssertEqual(
            try outcome(15, "2A18", glucose(date: [2023, 2, 30, 8, 30, 0])).skipped, .measurementTimeUnknown("2023-02-30 08:30:00"))
    }

    func testResultsBeyondTheMetersRangeAreMarkedLowOrHigh() throws {
        // 10 mg/dL (B00A, 10 x 10^-5 kg/L) flagged low; 600 mg/dL (C03C, 60 x 10^-4 kg/L) flagged high.
        let low = try diabetes(try outcome(15, "2A18", glucose(concentration: 0xB00A, status: 0x0020)))
        XCTAssertEqual(low.header.extras["out_of_range"], "Low")
        XCTAssertEqual(low.bloodGlucose, 10)
        let high = try diabetes(try outcome(15, "2A18", glucose(concentration: 0xC03C, status: 0x0041)))
        XCTAssertEqual(high.header.extras["out_of_range"], "High")
        XCTAssertEqual(high.bloodGlucose, 600)
        let plain = try diabetes(try outcome(15, "2A18", glucose(status: 0x0001)))
        XCTAssertNil(plain.header.extras["out_of_range"])
    }

    func testTheMealComesFromTheContextWithTheSameSequenceNumber() throws {
        let expected: [(UInt8, MealRelationship?)] = [(1, .before), (2, .after), (3, .fasting), (4, .random), (5, nil)]
        for (meal, relationship) in expected {
            let record = try diabetes(try outcome(15, "2A18", glucose(), context: mealContext(meal: meal)))
            XCTAssertEqual(record.relationshipToMeal, relationship, "meal \(meal)")
            XCTAssertEqual(record.header.extras["meal_context"], meal == 5 ? "bedtime" : nil, "meal \(meal)")
        }
        // Another reading's context is not this one's.
        let other = try diabetes(try outcome(15, "2A18", glucose(sequence: 7), context: mealContext(sequence: 8, meal: 1)))
        XCTAssertNil(other.relationshipToMeal)
        XCTAssertEqual(try diabetes(try outcome(15, "2A18", glucose())).relationshipToMeal, nil)
    }

    func testControlSolutionAndMissingConcentrationsGiveNoRecord() throws {
        XCTAssertEqual(try outcome(15, "2A18", glucose(type: 10)).skipped, .controlSolution)
        XCTAssertEqual(try outcome(15, "2A18", glucose(location: 4)).skipped, .controlSolution)
        XCTAssertEqual(try outcome(15, "2A18", glucose(concentration: nil)).skipped, .noValue(.bloodGlucose))
        XCTAssertEqual(try outcome(15, "2A18", glucose(concentration: 0x07FF)).skipped, .noValue(.bloodGlucose))
        XCTAssertEqual(try outcome(15, "2A18", glucose(concentration: 0x0800)).skipped, .noValue(.bloodGlucose))
        XCTAssertNotNil(try outcome(15, "2A18", glucose(type: 2, location: 2)).record)
    }

    func testEveryRecordCarriesTheDevicesProvenance() throws {
        let record = try diabetes(try outcome(15, "2A18", glucose()))
        XCTAssertTrue(record.header.validated)
        XCTAssertEqual(record.header.source, RecordHeader.vitalSnapSource)
        XCTAssertEqual(record.header.originalSource, "Nipro")
        XCTAssertEqual(record.header.device, "TRUE METRIX AIR")
        XCTAssertEqual(record.header.peripheralID, 15)
        XCTAssertEqual(record.header.extras["connection_type"], "bluetooth")
        // And all of it survives the queue's JSON.
        let decoded = try RecordJSON.decode(RecordJSON.encode(Record.diabetes(record)))
        XCTAssertEqual(decoded, .diabetes(record))
    }

    func testAStoredReadingFetchedAgainKeepsItsActivityID() throws {
        let first = try diabetes(try outcome(15, "2A18", glucose(), at: received))
        let again = try diabetes(try outcome(15, "2A18", glucose(), at: received.addingTimeInterval(86_400)))
        XCTAssertEqual(first.activityID, again.activityID)
        XCTAssertNotNil(UUID(uuidString: first.activityID))
        // Case of the address does not matter: it is the same device.
        let lower = try diabetes(try mapper(15, address: address.lowercased()).records(
            characteristic: "00002a18-0000-1000-8000-00805f9b34fb", payload: glucose(), context: nil, receivedAt: received))
        XCTAssertEqual(lower.activityID, first.activityID)
    }

    func testDifferentReadingsNeverShareAnActivityID() throws {
        var ids = Set<String>()
        for sequence in UInt16(0)..<200 {
            ids.insert(try diabetes(try outcome(15, "2A18", glucose(sequence: sequence))).activityID)
        }
        XCTAssertEqual(ids.count, 200)
        let base = try diabetes(try outcome(15, "2A18", glucose())).activityID
        // The same sequence number after the meter was reset: another base time.
        XCTAssertNotEqual(try diabetes(try outcome(15, "2A18", glucose(date: [2024, 11, 27, 8, 30, 0]))).activityID, base)
        // The same bytes from another meter of the same model, or another model.
        XCTAssertNotEqual(try diabetes(try mapper(15, address: "C0:26:DA:09:09:09").records(
            characteristic: "2A18", payload: glucose(), context: nil, receivedAt: received)).activityID, base)
        XCTAssertNotEqual(try diabetes(try outcome(1000, "2A18", glucose())).activityID, base)
    }

    // MARK: Blood pressure

    func testBloodPressureInMillimetresOfMercury() throws {
        // Nordic's vector: 138/88 mmHg, MAP 120, year unknown (so the time it arrived), pulse 60.
        let record = try biometrics(try outcome(2, "2A35", bytes("1E 8A 00 58 00 78 00 00 00 04 11 14 29 3B 3C 00 01 27 00")))
        XCTAssertEqual(record.systolic, 138)
        XCTAssertEqual(record.diastolic, 88)
        XCTAssertEqual(record.restingHeartRate, 60)
        XCTAssertEqual(record.header.extras["mean_arterial_pressure"], "120")
        XCTAssertEqual(record.timestamp, received)
        XCTAssertEqual(record.header.originalSource, "A&D")
    }

    func testBloodPressureInKilopascalsIsConverted() throws {
        // Nordic's vector: 18.9/11.0 kPa, MAP 15.9, pulse 60.
        let record = try biometrics(try outcome(2, "2A35", bytes("15 BD F0 0B 00 9F F0 3C 00 12 00")))
        XCTAssertEqual(try XCTUnwrap(record.systolic), 141.7617, accuracy: 1e-4)
        XCTAssertEqual(try XCTUnwrap(record.diastolic), 82.5068, accuracy: 1e-4)
        XCTAssertEqual(record.restingHeartRate, 60)
        XCTAssertEqual(try XCTUnwrap(Double(try XCTUnwrap(record.header.extras["mean_arterial_pressure"]))), 119.2598, accuracy: 1e-4)
    }

    func testABloodPressureTimeStampIsReadOnTheDevicesClock() throws {
        // 120/80 mmHg, MAP 93, at 2024-11-26 07:15:00.
        let payload = [0x02] + little16(120) + little16(80) + little16(93) + little16(2024) + [11, 26, 7, 15, 0]
        let record = try biometrics(try outcome(2, "2A35", payload))
        XCTAssertEqual(record.header.timestampText, "2024-11-26T07:15:00-05:00")
        XCTAssertNil(record.restingHeartRate)
    }

    func testSpecialBloodPressureValues() throws {
        // Systolic NaN: no reading.
        XCTAssertEqual(try outcome(2, "2A35", [0x00] + little16(0x07FF) + little16(80) + little16(93)).skipped, .noValue(.systolic))
        XCTAssertEqual(try outcome(2, "2A35", [0x00] + little16(120) + little16(0x07FE) + little16(93)).skipped, .noValue(.diastolic))
        // Pulse and mean pressure NRes: the reading without them.
        let record = try biometrics(try outcome(2, "2A35", [0x04] + little16(120) + little16(80) + little16(0x0800) + little16(0x0800)))
        XCTAssertNil(record.restingHeartRate)
        XCTAssertNil(record.header.extras["mean_arterial_pressure"])
        XCTAssertEqual(record.systolic, 120)
        // Systolic under diastolic is refused by Core, not trapped on.
        XCTAssertEqual(
            try outcome(2, "2A35", [0x00] + little16(80) + little16(120) + little16(93)).skipped,
            .invalid(.systolicNotAboveDiastolic(systolic: 80, diastolic: 120)))
    }

    // MARK: Temperature, weight, oximetry, heart rate

    func testTemperatureKeepsTheThermometersUnit() throws {
        // Nordic's vector: 37.60 °C at 2012-12-05 11:50:27, finger.
        let celsius = try biometrics(try outcome(1, "2A1C", bytes("06 B0 0E 00 FE DC 07 0C 05 0B 32 1B 04")))
        XCTAssertEqual(celsius.temperature, 37.6)
        XCTAssertEqual(celsius.displayedTemperature?.unit, .celsius)
        XCTAssertEqual(celsius.header.timestampText, "2012-12-05T11:50:27-05:00")
        // 98.6 °F (FLOAT 986 x 10^-1), no time stamp.
        let fahrenheit = try biometrics(try outcome(1, "2A1C", bytes("01 DA 03 00 FF")))
        XCTAssertEqual(fahrenheit.displayedTemperature?.unit, .fahrenheit)
        XCTAssertEqual(fahrenheit.displayedTemperature?.value, 98.6)
        XCTAssertEqual(try XCTUnwrap(fahrenheit.temperature), 37, accuracy: 1e-9)
        XCTAssertEqual(fahrenheit.timestamp, received)
        XCTAssertEqual(try outcome(1, "2A1C", bytes("00 FF FF 7F 00")).skipped, .noValue(.temperature))
        // 98.6 sent as °C: no one is 98.6 °C.
        guard case .skipped(.invalid(.outOfRange(.temperature, _, _))) = try outcome(1, "2A1C", bytes("00 DA 03 00 FF")) else {
            return XCTFail("98.6 °C accepted")
        }
    }

    func testWeightInTheScalesUnitWithBMIAndHeightInExtras() throws {
        let kilograms = try XCTUnwrap(try outcome(27, "2A9D", bytes("00 B0 36")).record?.weight)
        XCTAssertEqual(kilograms.weight, 70)
        XCTAssertEqual(kilograms.displayedWeight.unit, .kilograms)
        let pounds = try XCTUnwrap(try outcome(27, "2A9D", bytes("01 54 3D")).record?.weight)
        XCTAssertEqual(pounds.displayedWeight.unit, .pounds)
        XCTAssertEqual(pounds.displayedWeight.value, 157)
        XCTAssertEqual(pounds.weight, 157 * 0.45359237, accuracy: 1e-9)
        // At 0.1 kg and 0.01 m (feature 0x98): 70.0 kg, BMI 22.9, 1.80 m.
        let full = try XCTUnwrap(try outcome(27, "2A9D", bytes("08 BC 02 E5 00 B4 00"), context: bytes("98 00 00 00")).record?.weight)
        XCTAssertEqual(full.weight, 70)
        XCTAssertEqual(full.header.extras["bmi"], "22.9")
        XCTAssertEqual(full.header.extras["height"], "180")
        // The same height in inches (0.1 in steps without a feature): 70.9 in is 180.086 cm.
        let imperial = try XCTUnwrap(try outcome(27, "2A9D", [0x09] + little16(15_700) + little16(229) + little16(709)).record?.weight)
        XCTAssertEqual(imperial.header.extras["height"], "180.086")
        XCTAssertEqual(try outcome(27, "2A9D", bytes("00 FF FF")).skipped, .noValue(.weight))
        // A weight stamped with the scale's time.
        let stamped = try XCTUnwrap(try outcome(27, "2A9D", bytes("02 B0 36 E7 07 0C 19 0E 1E 2D")).record?.weight)
        XCTAssertEqual(stamped.header.timestampText, "2023-12-25T14:30:45-05:00")
    }

    func testOximetersGiveSpO2AndPulse() throws {
        // SpeziBluetooth's spot-check vector: 94 %, 147 bpm, 2024-11-29 23:08:57.
        let spot = try biometrics(try outcome(13, "2A5E", bytes("0F AC F3 BE F5 E8 07 0B 1D 17 08 39 20 40 22 00 00 66 E3")))
        XCTAssertEqual(spot.spo2, 94)
        XCTAssertEqual(spot.restingHeartRate, 147)
        XCTAssertEqual(spot.header.timestampText, "2024-11-29T23:08:57-05:00")
        // The same with "device clock not set" (flag 0x10): the time it arrived.
        let unset = try biometrics(try outcome(13, "2A5E", bytes("1F AC F3 BE F5 E8 07 0B 1D 17 08 39 20 40 22 00 00 66 E3")))
        XCTAssertEqual(unset.timestamp, received)
        let continuous = try biometrics(try outcome(13, "2A5F", bytes("00 64 00 5A 00")))
        XCTAssertEqual(continuous.spo2, 100)
        XCTAssertEqual(continuous.restingHeartRate, 90)
        let pulseOnly = try biometrics(try outcome(13, "2A5F", bytes("00 FF 07 5A 00")))
        XCTAssertNil(pulseOnly.spo2)
        XCTAssertEqual(pulseOnly.restingHeartRate, 90)
        XCTAssertEqual(try outcome(13, "2A5F", bytes("00 FF 07 00 08")).skipped, .noValue(.spo2))
    }

    func testTheNoninFrameBecomesARecord() throws {
        let uuid = NoninOximetryFrame.characteristicUUID.lowercased()
        let record = try biometrics(try outcome(13, uuid, [0x0A, 0x15, 0x1E, 0x01, 0x2C, 0x00, 0x05, 0x61, 0x00, 0x48]))
        XCTAssertEqual(record.spo2, 97)
        XCTAssertEqual(record.restingHeartRate, 72)
        XCTAssertEqual(record.header.device, "3230")
        XCTAssertEqual(
            try outcome(13, uuid, [0x0A, 0x15, 0x1E, 0x00, 0x00, 0x00, 0x06, 0x7F, 0x01, 0xFF]).skipped, .noValue(.spo2))
        // Counter 6 rather than 5: another frame, another ID, though it arrived the same second.
        let next = try biometrics(try outcome(13, uuid, [0x0A, 0x15, 0x1E, 0x01, 0x2C, 0x00, 0x06, 0x61, 0x00, 0x48]))
        XCTAssertNotEqual(next.activityID, record.activityID)
    }

    func testHeartRate() throws {
        XCTAssertEqual(try biometrics(try outcome(4, "2A37", bytes("00 48"))).restingHeartRate, 72)
        XCTAssertEqual(try biometrics(try outcome(4, "2A37", bytes("06 48"))).restingHeartRate, 72)
        // Contact is reported and absent: not a pulse.
        XCTAssertEqual(try outcome(4, "2A37", bytes("04 48")).skipped, .noSkinContact)
        guard case .skipped(.invalid(.outOfRange(.restingHeartRate, 0, _))) = try outcome(4, "2A37", bytes("00 00")) else {
            return XCTFail("a pulse of 0 accepted")
        }
    }

    func testLiveReadingsAtTheSameSecondDifferByTheirBytes() throws {
        let a = try biometrics(try outcome(4, "2A37", bytes("00 48")))
        let b = try biometrics(try outcome(4, "2A37", bytes("00 49")))
        let aAgain = try biometrics(try outcome(4, "2A37", bytes("00 48")))
        XCTAssertNotEqual(a.activityID, b.activityID)
        XCTAssertEqual(a.activityID, aAgain.activityID)
        XCTAssertNotEqual(a.activityID, try biometrics(try outcome(4, "2A37", bytes("00 48"), at: received + 1)).activityID)
    }

    // MARK: What is not a measurement

    func testOtherCharacteristicsAndBrokenValuesAreReportedNotTrappedOn() throws {
        XCTAssertEqual(try outcome(15, "2A52", bytes("06 00 01 01")).skipped, .unsupportedCharacteristic("2A52"))
        XCTAssertEqual(try outcome(3, "fff4", bytes("00")).skipped, .unsupportedCharacteristic("FFF4"))
        guard case .skipped(.undecodable(.tooShort)) = try outcome(1, "2A1C", bytes("06 B0 0E 00 FE DC 07 0C 05 0B 32 1B")) else {
            return XCTFail("a cut value decoded")
        }
        guard case .skipped(.undecodable) = try outcome(15, "2A18", glucose(), context: [0x02, 0x07]) else {
            return XCTFail("a cut context decoded")
        }
        for length in 0..<18 {
            let cut = Array(bytes("1B 01 00 E3 07 02 1B 0B 0A 1E FB FF 1E 00 12 05 01").prefix(length))
            XCTAssertNil(try outcome(15, "2A18", cut).record, "\(length) bytes")
        }
    }
}
