import Foundation
import VitalSnapImaging
import VitalSnapRecords

/// Turns what the camera read from one peripheral into a health record: picks the record type from the
/// peripheral's type, converts displayed units to the record's canonical ones, and refuses anything that is not
/// a measurement (words on the display, unreadable frames, peripherals that read plain numbers).
///
/// Records it makes are not `validated` (see `RecordHeader.validated`): a camera reading is not
/// device-transmitted.
public struct RecordBuilder: Sendable {
    public var peripheral: PeripheralDefinition
    public var source = RecordHeader.vitalSnapSource
    public var sourceName = RecordHeader.vitalSnapSourceName

    public init(peripheral: PeripheralDefinition) {
        self.peripheral = peripheral
    }

    /// The record of `reading`, with the crop of the display and how it was read.
    ///
    /// - Parameters:
    ///   - crop: the display as the camera saw it, kept beside the record.
    ///   - displayRegion: where the display was in the frame, in pixels; nil when unknown.
    ///   - glare: the glare found on the display; refusing readings under glare is the reader's decision
    ///     (`DisplayReader` does), this only records it.
    ///   - timestamp: when the reading was taken.
    ///   - timeZone: the wall clock's zone at `timestamp`, for the record's UTC offset.
    public func capture(
        _ reading: Reading, crop: GrayImage, displayRegion: PixelRect?, glare: GlareReport = .none,
        timestamp: Date, timeZone: TimeZone = .current, activityID: String = ActivityID.generate()
    ) throws(RecordBuildError) -> OCRCapture {
        let metadata = CaptureMetadata(
            peripheralID: peripheral.id, reading: reading, glare: glare, displayRegion: displayRegion)
        let record = try record(
            from: reading, metadata: metadata, timestamp: timestamp,
            utcOffset: UTCOffset(timeZone: timeZone, at: timestamp), activityID: activityID)
        return OCRCapture(record: record, crop: crop, metadata: metadata)
    }

    /// The record of `reading` alone; `metadata`'s scalars go into its extras. The record's peripheral ID is the
    /// builder's peripheral, whose definition decided how the reading was interpreted.
    public func record(
        from reading: Reading, metadata: CaptureMetadata, timestamp: Date, utcOffset: UTCOffset,
        activityID: String = ActivityID.generate()
    ) throws(RecordBuildError) -> Record {
        // The peripheral decides first: a numeric display's reading is never a record, whatever it shows.
        guard peripheral.type != .numericDisplay else { throw .notAHealthRecord(peripheralID: peripheral.id) }
        let values: [FieldValue]
        switch reading.outcome {
        case .values(let read): values = read
        case .word(let word): throw .displayShowsWord(word, device: peripheral.type)
        case .none(let why): throw .noValue(reason: why.message)
        }
        let header = RecordHeader(
            activityID: activityID, timestamp: timestamp, utcOffset: utcOffset, source: source,
            sourceName: sourceName,
            // A generic definition ("Any") stands for every maker's device: the maker is unknown.
            originalSource: peripheral.isGeneric ? nil : peripheral.manufacturer,
            device: peripheral.model, peripheralID: peripheral.id, validated: false, extras: metadata.extras)
        let fields = FieldLookup(values: values, peripheralID: peripheral.id)
        switch peripheral.type {
        case .glucoseMeter:
            let glucose = try fields.required(.bloodGlucose)
            let unit = try fields.unit(of: glucose, GlucoseUnit.self)
            return try Self.checked { () throws(RecordValidationError) in
                .diabetes(try DiabetesRecord(header: header, bloodGlucose: glucose.value, unit: unit))
            }
        case .bloodPressureMonitor:
            let systolic = try fields.required(.systolic, unit: "mmHg")
            let diastolic = try fields.required(.diastolic, unit: "mmHg")
            let pulse = try fields.optional(.pulse, unit: "bpm")
            return try Self.checked { () throws(RecordValidationError) in
                .biometrics(try BiometricsRecord(
                    header: header, systolic: systolic.value, diastolic: diastolic.value,
                    restingHeartRate: pulse?.value))
            }
        case .thermometer:
            let temperature = try fields.required(.temperature)
            let unit = try fields.unit(of: temperature, TemperatureUnit.self)
            return try Self.checked { () throws(RecordValidationError) in
                .biometrics(try BiometricsRecord(header: header, temperature: temperature.value, temperatureUnit: unit))
            }
        case .pulseOximeter:
            let spo2 = try fields.required(.spo2, unit: "%")
            let pulse = try fields.optional(.pulse, unit: "bpm")
            return try Self.checked { () throws(RecordValidationError) in
                .biometrics(try BiometricsRecord(header: header, restingHeartRate: pulse?.value, spo2: spo2.value))
            }
        case .weightScale:
            let weight = try fields.required(.weight)
            let unit = try fields.unit(of: weight, WeightUnit.self)
            return try Self.checked { () throws(RecordValidationError) in
                .weight(try WeightRecord(header: header, weight: weight.value, unit: unit))
            }
        case .numericDisplay:
            throw .notAHealthRecord(peripheralID: peripheral.id)
        }
    }

    /// Runs a record initializer, reporting a physically impossible value as a build error.
    private static func checked(_ make: () throws(RecordValidationError) -> Record) throws(RecordBuildError) -> Record {
        do {
            return try make()
        } catch {
            throw .invalid(error)
        }
    }
}

/// The values of one reading by field, with the unit checks a record needs.
private struct FieldLookup {
    var values: [FieldValue]
    var peripheralID: Int

    func optional(_ name: FieldName, unit expected: String? = nil) throws(RecordBuildError) -> FieldValue? {
        guard let value = values.first(where: { $0.field == name }) else { return nil }
        if let expected, value.unit.lowercased() != expected.lowercased() {
            throw .unsupportedUnit(name, unit: value.unit, peripheralID: peripheralID)
        }
        return value
    }

    func required(_ name: FieldName, unit expected: String? = nil) throws(RecordBuildError) -> FieldValue {
        guard let value = try optional(name, unit: expected) else {
            throw .missingField(name, peripheralID: peripheralID)
        }
        return value
    }

    func unit<Unit: HealthUnit>(of value: FieldValue, _ type: Unit.Type) throws(RecordBuildError) -> Unit {
        guard let unit = Unit(parsing: value.unit) else {
            throw .unsupportedUnit(value.field, unit: value.unit, peripheralID: peripheralID)
        }
        return unit
    }
}
