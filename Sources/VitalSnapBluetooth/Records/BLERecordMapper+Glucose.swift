import Foundation
import VitalSnapRecords

extension BLERecordMapper {
    /// Sample type of a glucose meter's control solution (Glucose Measurement, type nibble).
    static let controlSolutionSampleType = 10
    /// Sample location of a glucose meter's control solution (Glucose Measurement, location nibble).
    static let controlSolutionSampleLocation = 4

    /// A Glucose Measurement (2A18), with the context (2A34) that followed it: a `DiabetesRecord` in mg/dL or
    /// mmol/L as the meter has it (kg/L and mol/L are the wire's units, not a display's).
    ///
    /// - The time is the base time plus the time offset, on the device's clock; a meter that does not know the
    ///   date gives no record (these are stored readings: the time they were fetched is not when they were taken).
    /// - "Lower / higher than the device can process" (sensor status 0x0020 / 0x0040) go to `extras` as the SDK's
    ///   `out_of_range` `Low` / `High`, the value kept.
    /// - A context with another sequence number belongs to another reading and is not used.
    /// - The activity ID comes from the sequence number and the base time: the same stored reading, fetched again,
    ///   keeps it; a meter whose sequence numbers restart (reset, new batteries) gives new base times.
    public func record(glucose m: GlucoseMeasurement, context: GlucoseMeasurementContext?, receivedAt: Date) -> BLEReadingOutcome {
        if m.sampleType == Self.controlSolutionSampleType || m.sampleLocation == Self.controlSolutionSampleLocation {
            return .skipped(.controlSolution)
        }
        let displayed: (value: Double, unit: GlucoseUnit)?
        switch m.unit {
        case .kilogramsPerLitre:
            displayed = m.concentration?.double(timesTenToThe: GATTUnitConversion.kilogramsPerLitreToMilligramsPerDecilitreExponent)
                .map { ($0, .mgPerDL) }
        case .molesPerLitre:
            displayed = m.concentration?.double(timesTenToThe: GATTUnitConversion.molesToMillimolesExponent).map { ($0, .mmolPerL) }
        }
        guard let displayed else { return .skipped(.noValue(.bloodGlucose)) }
        guard let timestamp = clock.date(of: m.baseTime, addingMinutes: m.timeOffsetMinutes ?? 0) else {
            return .skipped(.measurementTimeUnknown(m.baseTime.description))
        }
        var extras: [String: String] = [:]
        if let status = m.sensorStatus {
            if status.contains(.resultTooLow) { extras[BLEExtrasKey.outOfRange] = BLEExtrasKey.outOfRangeLow }
            if status.contains(.resultTooHigh) { extras[BLEExtrasKey.outOfRange] = BLEExtrasKey.outOfRangeHigh }
        }
        let meal = context?.sequenceNumber == m.sequenceNumber ? context?.meal : nil
        if let word = meal?.extrasContext { extras[BLEExtrasKey.mealContext] = word }
        let identity = "\(m.sequenceNumber)" + Self.identitySeparator + m.baseTime.description
        let header = header(
            characteristic: BLEUUID.short(GlucoseMeasurement.uuid), identity: identity, timestamp: timestamp, extras: extras)
        return validated { () throws(RecordValidationError) in
            .diabetes(try DiabetesRecord(
                header: header, bloodGlucose: displayed.value, unit: displayed.unit, relationshipToMeal: meal?.mealRelationship))
        }
    }
}
