import XCTest
@testable import VitalSnapBluetooth

/// The decoders against the reference vectors of published parsers' tests (Nordic's Android-BLE-Common-Library,
/// SpeziBluetooth; see ../shared/reference/validic-sdk-facts.md, section 3), and against values cut short at
/// every length.
final class GATTDecoderTests: XCTestCase {
    func bytes(_ hex: String) -> [UInt8] {
        hex.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    // MARK: Numbers

    func testSFLOATValuesAndSpecials() {
        XCTAssertEqual(MedicalFloat(sfloat: 0x001E), .value(mantissa: 30, exponent: 0))
        XCTAssertEqual(MedicalFloat(sfloat: 0xF0BD).double, 18.9)  // 189 x 10^-1
        XCTAssertEqual(MedicalFloat(sfloat: 0xC00C).double, 0.0012)  // 12 x 10^-4: 120 mg/dL as kg/L
        XCTAssertEqual(MedicalFloat(sfloat: 0x0FFF).double, -1)  // mantissa 0xFFF is -1
        XCTAssertEqual(MedicalFloat(sfloat: 0x2005).double, 500)
        XCTAssertEqual(MedicalFloat(sfloat: 0x07FF), .notANumber)
        XCTAssertEqual(MedicalFloat(sfloat: 0x0800), .notAtThisResolution)
        XCTAssertEqual(MedicalFloat(sfloat: 0x07FE), .positiveInfinity)
        XCTAssertEqual(MedicalFloat(sfloat: 0x0802), .negativeInfinity)
        XCTAssertEqual(MedicalFloat(sfloat: 0x0801), .reserved)
        XCTAssertNil(MedicalFloat(sfloat: 0x07FF).double)
        XCTAssertEqual(MedicalFloat(sfloat: 0xE366).description, "8.70")
        XCTAssertEqual(MedicalFloat(sfloat: 0xFFFF).description, "-0.1")
    }

    func testFLOATValuesAndSpecials() {
        XCTAssertEqual(MedicalFloat(float: 0xFE00_0EB0), .value(mantissa: 3760, exponent: -2))
        XCTAssertEqual(MedicalFloat(float: 0xFE00_0EB0).description, "37.60")
        XCTAssertEqual(MedicalFloat(float: 0xFEFF_FFFF).double, -0.01)
        XCTAssertEqual(MedicalFloat(float: 0x007F_FFFF), .notANumber)
        XCTAssertEqual(MedicalFloat(float: 0x0080_0000), .notAtThisResolution)
        XCTAssertEqual(MedicalFloat(float: 0x007F_FFFE), .positiveInfinity)
        XCTAssertEqual(MedicalFloat(float: 0x0080_0002), .negativeInfinity)
    }

    // MARK: Glucose (0x2A18)

    func testGlucoseReferenceVector() throws {
        // Nordic GlucoseMeasurementDataCallbackTest.
        let m = try GlucoseMeasurement(bytes("1B 01 00 E3 07 02 1B 0B 0A 1E FB FF 1E 00 12 05 01"))
        XCTAssertEqual(m.sequenceNumber, 1)
        XCTAssertEqual(m.baseTime.description, "2019-02-27 11:10:30")
        XCTAssertEqual(m.timeOffsetMinutes, -5)
        XCTAssertEqual(m.concentration, .value(mantissa: 30, exponent: 0))
        XCTAssertEqual(m.unit, .kilogramsPerLitre)
        XCTAssertEqual(m.sampleType, 2)
        XCTAssertEqual(m.sampleLocation, 1)
        XCTAssertEqual(m.sensorStatus, [.batteryLow, .sampleSizeInsufficient, .temperatureTooLow])
        XCTAssertTrue(m.contextFollows)
    }

    func testGlucoseConcentrationInMilligramsPerDecilitre() throws {
        // 120 mg/dL = 0.0012 kg/L (SFLOAT C00C); 6.5 mmol/L = 0.0065 mol/L (SFLOAT C041).
        let kg = try GlucoseMeasurement(bytes("02 07 00 E8 07 0B 1A 08 00 00 0C C0 11"))
        XCTAssertEqual(try XCTUnwrap(kg.milligramsPerDecilitre), 120, accuracy: 1e-9)
        let mol = try GlucoseMeasurement(bytes("06 08 00 E8 07 0B 1A 08 00 00 41 C0 11"))
        XCTAssertEqual(mol.unit, .molesPerLitre)
        XCTAssertEqual(try XCTUnwrap(mol.milligramsPerDecilitre), 117, accuracy: 1e-9)
        XCTAssertNil(try GlucoseMeasurement(bytes("00 07 00 E8 07 0B 1A 08 00 00")).milligramsPerDecilitre, "no concentration")
    }

    func testGlucoseWithAFlaggedButMissingOffsetIsRefused() {
        // Nordic's invalid vector: flags announce the time offset, the value stops before the status.
        XCTAssertThrowsError(try GlucoseMeasurement(bytes("1B 00 00 E2 07 04 1A 0B 09 1E 1E 00 12 05 01"))) { error in
            guard case GATTDecodeError.tooShort(_, let field, _, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(field, "sensor status annunciation")
        }
    }

    // MARK: Blood pressure (0x2A35)

    func testBloodPressureReferenceVectors() throws {
        // Nordic BloodPressureMeasurementDataCallbackTest.
        let mmHg = try BloodPressureMeasurement(bytes("1E 8A 00 58 00 78 00 00 00 04 11 14 29 3B 3C 00 01 27 00"))
        XCTAssertEqual(mmHg.unit, .millimetresOfMercury)
        XCTAssertEqual([mmHg.systolic.double, mmHg.diastolic.double, mmHg.meanArterialPressure.double], [138, 88, 120])
        XCTAssertEqual(mmHg.timestamp?.description, "????-04-17 20:41:59")
        XCTAssertNil(mmHg.timestamp?.year)
        XCTAssertEqual(mmHg.pulseRate?.double, 60)
        XCTAssertEqual(mmHg.userID, 1)
        XCTAssertEqual(mmHg.status, [.bodyMovement, .cuffTooLoose, .irregularPulse, .improperPosition])
        let kPa = try BloodPressureMeasurement(bytes("15 BD F0 0B 00 9F F0 3C 00 12 00"))
        XCTAssertEqual(kPa.unit, .kilopascals)
        XCTAssertEqual([kPa.systolic.double, kPa.diastolic.double, kPa.meanArterialPressure.double], [18.9, 11, 15.9])
        XCTAssertNil(kPa.timestamp)
        XCTAssertEqual(kPa.pulseRate?.double, 60)
        XCTAssertEqual(kPa.status?.rawValue, 0x12)
    }

    // MARK: Temperature (0x2A1C)

    func testTemperatureReferenceVector() throws {
        // Nordic TemperatureMeasurementDataCallbackTest; the same without its last byte is invalid.
        let value = bytes("06 B0 0E 00 FE DC 07 0C 05 0B 32 1B 04")
        let t = try TemperatureMeasurement(value)
        XCTAssertEqual(t.unit, .celsius)
        XCTAssertEqual(t.temperature.description, "37.60")
        XCTAssertEqual(t.timestamp?.description, "2012-12-05 11:50:27")
        XCTAssertEqual(t.type, 4)
        XCTAssertThrowsError(try TemperatureMeasurement(Array(value.dropLast())))
    }

    // MARK: Weight (0x2A9D, 0x2A9E)

    func testWeightVectors() throws {
        XCTAssertEqual(try WeightMeasurement(bytes("00 B0 36")).weight ?? 0, 70.0, accuracy: 1e-9)
        let lb = try WeightMeasurement(bytes("01 54 3D"))
        XCTAssertEqual(lb.units, .imperial)
        XCTAssertEqual(lb.weight ?? 0, 157.0, accuracy: 1e-9)
        let stamped = try WeightMeasurement(bytes("02 B0 36 E7 07 0C 19 0E 1E 2D"))
        XCTAssertEqual(stamped.timestamp?.description, "2023-12-25 14:30:45")
        XCTAssertNil(try WeightMeasurement(bytes("00 FF FF")).weight, "measurement unsuccessful")
    }

    func testWeightFollowsTheScalesResolution() throws {
        // Resolution code 7 (0.005 kg, bits 3-6): raw 120 is 0.6 kg (SpeziBluetooth's WeightScaleTests);
        // code 3 (0.1 kg): raw 700 is 70 kg. BMI and height (flag bit 3) at height resolution 1 (0.01 m).
        XCTAssertEqual(try WeightMeasurement(bytes("00 78 00"), feature: WeightScaleFeature(rawValue: 7 << 3)).weight ?? 0, 0.6, accuracy: 1e-9)
        let coarse = WeightScaleFeature(rawValue: 3 << 3 | 1 << 7 | 0x04)
        let m = try WeightMeasurement(bytes("08 BC 02 E5 00 B4 00"), feature: coarse)
        XCTAssertEqual(m.weight ?? 0, 70.0, accuracy: 1e-9)
        XCTAssertEqual(m.bmi, 22.9, "exactly, as the scale sent it")
        XCTAssertEqual(m.height ?? 0, 1.80, accuracy: 1e-9)
        XCTAssertTrue(coarse.bmiSupported)
        XCTAssertNil(WeightScaleFeature(rawValue: 0).weightStepsPerUnit(imperial: false), "not specified")
        XCTAssertEqual(coarse.weightStepsPerUnit(imperial: true), 5, "0.2 lb")
    }

    // MARK: Pulse oximetry (0x2A5E, 0x2A5F) and heart rate (0x2A37)

    func testSpotCheckReferenceVector() throws {
        // SpeziBluetooth PLXTests.
        let m = try PLXSpotCheckMeasurement(bytes("0F AC F3 BE F5 E8 07 0B 1D 17 08 39 20 40 22 00 00 66 E3"))
        XCTAssertEqual(m.spo2.double, 94)
        XCTAssertEqual(m.pulseRate.double, 147)
        XCTAssertEqual(m.timestamp?.description, "2024-11-29 23:08:57")
        XCTAssertEqual(m.measurementStatus, 0x4020)
        XCTAssertEqual(m.deviceAndSensorStatus, 0x000022)
        XCTAssertEqual(m.pulseAmplitudeIndex?.description, "8.70")
        XCTAssertFalse(m.deviceClockNotSet)
    }

    func testContinuousReferenceVector() throws {
        let m = try PLXContinuousMeasurement(bytes("00 64 00 5A 00"))
        XCTAssertEqual(m.spo2.double, 100)
        XCTAssertEqual(m.pulseRate.double, 90)
        XCTAssertNil(m.fast)
        XCTAssertThrowsError(try PLXContinuousMeasurement(bytes("01 64 00 5A 00 63 00")), "fast values flagged, half there")
    }

    func testHeartRateFormats() throws {
        // Built from the specification's layout: 8-bit rate; 16-bit rate with contact, energy and two RR intervals.
        XCTAssertEqual(try HeartRateMeasurement(bytes("00 48")).beatsPerMinute, 72)
        let full = try HeartRateMeasurement(bytes("1F 2C 01 0A 00 00 04 00 02"))
        XCTAssertEqual(full.beatsPerMinute, 300)
        XCTAssertEqual(full.sensorContact, true)
        XCTAssertEqual(full.energyExpended, 10)
        XCTAssertEqual(full.rrIntervals, [1.0, 0.5])
        XCTAssertNil(try HeartRateMeasurement(bytes("00 48")).sensorContact)
        XCTAssertThrowsError(try HeartRateMeasurement(bytes("10 48 00")), "an RR interval cut in half")
    }

    // MARK: Malformed input

    /// Every valid value cut at every shorter length is refused with the field it stopped in, never a trap.
    func testEveryTruncationIsRefusedWithItsField() throws {
        let vectors: [(String, ([UInt8]) throws -> Void)] = [
            ("1B 01 00 E3 07 02 1B 0B 0A 1E FB FF 1E 00 12 05 01", { _ = try GlucoseMeasurement($0) }),
            ("1E 8A 00 58 00 78 00 00 00 04 11 14 29 3B 3C 00 01 27 00", { _ = try BloodPressureMeasurement($0) }),
            ("06 B0 0E 00 FE DC 07 0C 05 0B 32 1B 04", { _ = try TemperatureMeasurement($0) }),
            ("0A B0 36 E7 07 0C 19 0E 1E 2D E5 00 B4 00", { _ = try WeightMeasurement($0) }),
            ("0F AC F3 BE F5 E8 07 0B 1D 17 08 39 20 40 22 00 00 66 E3", { _ = try PLXSpotCheckMeasurement($0) }),
            ("1F 64 00 5A 00 63 00 59 00 62 00 58 00 01 00 02 00 00 66 E3", { _ = try PLXContinuousMeasurement($0) }),
        ]
        for (hex, decode) in vectors {
            let whole = bytes(hex)
            XCTAssertNoThrow(try decode(whole), hex)
            for length in 0..<whole.count {
                XCTAssertThrowsError(try decode(Array(whole.prefix(length))), "\(hex) cut to \(length)") { error in
                    guard case GATTDecodeError.tooShort = error else { return XCTFail("\(error)") }
                }
            }
        }
    }

    func testImpossibleDatesAreRefused() {
        // Month 13, then hour 24.
        XCTAssertThrowsError(try TemperatureMeasurement(bytes("02 B0 0E 00 FE DC 07 0D 05 0B 32 1B"))) { error in
            XCTAssertEqual("\(error)", "Temperature Measurement (2A1C): invalid date and time: month 13 is outside 0...12")
        }
        XCTAssertThrowsError(try BloodPressureMeasurement(bytes("02 8A 00 58 00 78 00 E8 07 01 01 18 00 00")))
    }

    func testRandomBytesNeverTrap() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let count = Int(state >> 59)
            var value: [UInt8] = []
            for _ in 0..<count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                value.append(UInt8(truncatingIfNeeded: state >> 56))
            }
            _ = try? GlucoseMeasurement(value)
            _ = try? BloodPressureMeasurement(value)
            _ = try? TemperatureMeasurement(value)
            _ = try? WeightMeasurement(value)
            _ = try? PLXSpotCheckMeasurement(value)
            _ = try? PLXContinuousMeasurement(value)
            _ = try? HeartRateMeasurement(value)
        }
    }
}

/// Glucose context (0x2A34) and the record access control point (0x2A52).
final class GlucoseRecordAccessTests: XCTestCase {
    func bytes(_ hex: String) -> [UInt8] {
        hex.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    func testContextWithEveryField() throws {
        // Built from the layout (flags FF): seq 7, extended flags 0, carbohydrate 1 (breakfast) 45 g, meal 1
        // (preprandial), tester 1 / health 5, exercise 1800 s at 60 %, medication 1 (rapid-acting) 0.5 volume,
        // HbA1c 6.5 %.
        let c = try GlucoseMeasurementContext(bytes("FF 07 00 00 01 2D 00 01 51 08 07 3C 01 05 F0 41 F0"))
        XCTAssertEqual(c.sequenceNumber, 7)
        XCTAssertEqual(c.extendedFlags, 0)
        XCTAssertEqual(c.carbohydrate?.id, 1)
        XCTAssertEqual(c.carbohydrate?.grams.double, 45)
        XCTAssertEqual(c.meal, .preprandial)
        XCTAssertEqual(c.tester, 1)
        XCTAssertEqual(c.health, 5)
        XCTAssertEqual(c.exercise?.durationSeconds, 1800)
        XCTAssertEqual(c.exercise?.intensityPercent, 60)
        XCTAssertEqual(c.medication?.id, 1)
        XCTAssertEqual(c.medication?.amount.double, 0.5)
        XCTAssertEqual(c.medication?.unit, .volume)
        XCTAssertEqual(c.hba1cPercent?.double, 6.5)
        for length in 0..<17 {
            XCTAssertThrowsError(try GlucoseMeasurementContext(Array(bytes("FF 07 00 00 01 2D 00 01 51 08 07 3C 01 05 F0 41 F0").prefix(length))))
        }
    }

    func testContextWithOnlyTheMeal() throws {
        let c = try GlucoseMeasurementContext(bytes("02 2A 00 03"))
        XCTAssertEqual(c.sequenceNumber, 42)
        XCTAssertEqual(c.meal, .fasting)
        XCTAssertNil(c.carbohydrate)
        XCTAssertNil(c.hba1cPercent)
        XCTAssertNil(try GlucoseMeasurementContext(bytes("02 2A 00 09")).meal, "an undefined meal value")
    }

    func testRequestsAreTheBytesTheSpecificationGives() {
        XCTAssertEqual(RecordAccessControlPoint.Request.reportAllRecords.bytes, [0x01, 0x01])
        XCTAssertEqual(RecordAccessControlPoint.Request.reportRecords(fromSequenceNumber: 0x0102).bytes, [0x01, 0x03, 0x01, 0x02, 0x01])
        XCTAssertEqual(RecordAccessControlPoint.Request.reportNumberOfRecords.bytes, [0x04, 0x01])
    }

    func testResponses() throws {
        // The reference responses (Nordic RecordAccessControlPointDataCallbackTest).
        XCTAssertEqual(try RecordAccessControlPoint.Response(bytes("06 00 01 01")), .response(requestOpCode: 1, code: .success))
        XCTAssertEqual(try RecordAccessControlPoint.Response(bytes("06 00 01 06")), .response(requestOpCode: 1, code: .noRecordsFound))
        XCTAssertEqual(try RecordAccessControlPoint.Response(bytes("05 00 02 01")), .numberOfRecords(258))
        XCTAssertThrowsError(try RecordAccessControlPoint.Response(bytes("06 00 01 0A")), "response code 10 is not defined")
        XCTAssertThrowsError(try RecordAccessControlPoint.Response(bytes("01 01")), "a request is not a response")
        XCTAssertThrowsError(try RecordAccessControlPoint.Response(bytes("05 00 02")), "count cut short")
    }
}
