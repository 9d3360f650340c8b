import Foundation

/// What every record type is: a value with the common fields, its own measurements, a JSON form matching
/// Validic's ingestion body, and a check that its values are possible.
public protocol HealthRecord: Codable, Sendable, Hashable {
    static var recordType: RecordType { get }
    var header: RecordHeader { get set }
    /// Throws when a value is physically impossible or the common fields are unusable. Records check themselves
    /// when made and when decoded; `header` is mutable, so check again before queueing an edited record.
    func validate() throws(RecordValidationError)
}

extension HealthRecord {
    public var activityID: String { header.activityID }
    public var timestamp: Date { header.timestamp }
    public var utcOffset: UTCOffset { header.utcOffset }

    /// For `init(from:)`: a decoded record that fails validation is reported as corrupt data, so a damaged or
    /// hand-edited queue entry is caught where it is read rather than where it is uploaded.
    func checkDecoded(_ decoder: any Decoder) throws {
        do {
            try validate()
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }
}

/// A record whose values are a set of optional measurements, any of which may be present.
public protocol MeasurementSetRecord: HealthRecord {
    /// The measurements present, in canonical units, in JSON order.
    var measurements: [(field: RecordField, value: Double)] { get }
}

extension MeasurementSetRecord {
    /// What every such record checks: the common fields, at least one measurement, each within its field's limits.
    func checkMeasurements() throws(RecordValidationError) {
        try header.validate()
        let present = measurements
        guard !present.isEmpty else { throw .noMeasurement(Self.recordType) }
        for (field, value) in present { try field.check(value) }
    }

    /// Writes the common fields, then each measurement present under its field's JSON name.
    func writeMeasurements(into fields: inout some RecordFieldWriter, rawData: [(field: String, measurement: RawMeasurement)] = []) throws {
        try header.writeFields(into: &fields, rawData: rawData)
        for (field, value) in measurements { try fields.write(value, forKey: field) }
    }
}
