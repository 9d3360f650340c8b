import Foundation
import VitalSnapRecords

extension BLERecordMapper {
    /// A Blood Pressure Measurement (2A35): systolic and diastolic in mmHg (kPa converted), the pulse as resting
    /// heart rate, the mean arterial pressure in `extras` (the SDK's `mean_arterial_pressure`). Systolic or
    /// diastolic sent as a special value gives no record; a special pulse or mean pressure is left out.
    public func record(bloodPressure m: BloodPressureMeasurement, payload: [UInt8], receivedAt: Date) -> BLEReadingOutcome {
        func millimetresOfMercury(_ value: MedicalFloat) -> Double? {
            guard let number = value.double else { return nil }
            switch m.unit {
            case .millimetresOfMercury: return number
            case .kilopascals: return GATTUnitConversion.rounded(number * GATTUnitConversion.millimetresOfMercuryPerKilopascal)
            }
        }
        guard let systolic = millimetresOfMercury(m.systolic) else { return .skipped(.noValue(.systolic)) }
        guard let diastolic = millimetresOfMercury(m.diastolic) else { return .skipped(.noValue(.diastolic)) }
        var extras: [String: String] = [:]
        if let mean = millimetresOfMercury(m.meanArterialPressure) {
            extras[BLEExtrasKey.meanArterialPressure] = DecimalRounding.shortText(mean)
        }
        let header = header(
            characteristic: BLEUUID.short(BloodPressureMeasurement.uuid),
            identity: identity(timestamp: m.timestamp, receivedAt: receivedAt, payload: payload),
            timestamp: liveTimestamp(m.timestamp, receivedAt: receivedAt), extras: extras)
        return validated { () throws(RecordValidationError) in
            .biometrics(try BiometricsRecord(
                header: header, systolic: systolic, diastolic: diastolic, restingHeartRate: m.pulseRate?.double))
        }
    }

    /// A Temperature Measurement (2A1C): the temperature in the unit the thermometer sent (kept as displayed,
    /// stored in °C by Core).
    public func record(temperature m: TemperatureMeasurement, payload: [UInt8], receivedAt: Date) -> BLEReadingOutcome {
        guard let value = m.temperature.double else { return .skipped(.noValue(.temperature)) }
        let unit: TemperatureUnit = m.unit == .fahrenheit ? .fahrenheit : .celsius
        let header = header(
            characteristic: BLEUUID.short(TemperatureMeasurement.uuid),
            identity: identity(timestamp: m.timestamp, receivedAt: receivedAt, payload: payload),
            timestamp: liveTimestamp(m.timestamp, receivedAt: receivedAt))
        return validated { () throws(RecordValidationError) in
            .biometrics(try BiometricsRecord(header: header, temperature: value, temperatureUnit: unit))
        }
    }

    /// A PLX Spot-Check Measurement (2A5E): SpO2 and pulse. Its time stamp is not used when the oximeter says
    /// its clock is not set.
    public func record(spotCheck m: PLXSpotCheckMeasurement, payload: [UInt8], receivedAt: Date) -> BLEReadingOutcome {
        let timestamp = m.deviceClockNotSet ? nil : m.timestamp
        return oximetry(
            spo2: m.spo2.double, pulse: m.pulseRate.double, characteristic: BLEUUID.short(PLXSpotCheckMeasurement.uuid),
            identity: identity(timestamp: timestamp, receivedAt: receivedAt, payload: payload),
            timestamp: liveTimestamp(timestamp, receivedAt: receivedAt))
    }

    /// A PLX Continuous Measurement (2A5F): the normal-averaging SpO2 and pulse, at the time it arrived.
    public func record(continuous m: PLXContinuousMeasurement, payload: [UInt8], receivedAt: Date) -> BLEReadingOutcome {
        oximetry(
            spo2: m.spo2.double, pulse: m.pulseRate.double, characteristic: BLEUUID.short(PLXContinuousMeasurement.uuid),
            identity: identity(timestamp: nil, receivedAt: receivedAt, payload: payload), timestamp: receivedAt)
    }

    /// A Nonin 3230 frame: SpO2 and pulse, at the time it arrived.
    public func record(nonin frame: NoninOximetryFrame, payload: [UInt8], receivedAt: Date) -> BLEReadingOutcome {
        oximetry(
            spo2: frame.spo2.map(Double.init), pulse: frame.pulseRate.map(Double.init),
            characteristic: NoninOximetryFrame.characteristicUUID,
            identity: identity(timestamp: nil, receivedAt: receivedAt, payload: payload), timestamp: receivedAt)
    }

    /// A Heart Rate Measurement (2A37): the rate as resting heart rate, unless the sensor says it is off the skin.
    public func record(heartRate m: HeartRateMeasurement, payload: [UInt8], receivedAt: Date) -> BLEReadingOutcome {
        if m.sensorContact == false { return .skipped(.noSkinContact) }
        let header = header(
            characteristic: BLEUUID.short(HeartRateMeasurement.uuid),
            identity: identity(timestamp: nil, receivedAt: receivedAt, payload: payload), timestamp: receivedAt)
        return validated { () throws(RecordValidationError) in
            .biometrics(try BiometricsRecord(header: header, restingHeartRate: Double(m.beatsPerMinute)))
        }
    }

    /// An oximeter's record: whichever of SpO2 and pulse it sent; neither is no record.
    private func oximetry(spo2: Double?, pulse: Double?, characteristic: String, identity: String, timestamp: Date) -> BLEReadingOutcome {
        guard spo2 != nil || pulse != nil else { return .skipped(.noValue(.spo2)) }
        let header = header(characteristic: characteristic, identity: identity, timestamp: timestamp)
        return validated { () throws(RecordValidationError) in
            .biometrics(try BiometricsRecord(header: header, restingHeartRate: pulse, spo2: spo2))
        }
    }
}
