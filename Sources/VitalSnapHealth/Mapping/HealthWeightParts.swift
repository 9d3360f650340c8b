import VitalSnapRecords

/// Body mass, BMI, body fat, lean mass and height, gathered into one weight record per moment and source, as a
/// smart scale writes them together. They come in separate parts of the export (grouped by type), so they are
/// held until its end: a few per day at most, so memory stays small.
public final class HealthWeightParts {
    public struct Part: Equatable, Sendable {
        var kind: HealthSampleKind
        /// Canonical unit of the record field (kg, cm, %, kg/m²); for body mass, as displayed with `unit`.
        var value: Double
        var unit: WeightUnit?
        var start: HealthDate
        var sourceName: String
        var deviceName: String?
        var userEntered: Bool
    }

    struct Key: Hashable {
        var seconds: Int64
        var source: String
    }

    private var groups: [Key: [Part]] = [:]

    public init() {}

    public func add(_ part: Part) {
        groups[Key(seconds: part.start.seconds, source: part.sourceName), default: []].append(part)
    }

    /// One record per moment with a body mass, in time order; the other parts are skips.
    public func records() -> [Result<Record, HealthSkip>] {
        groups.sorted { ($0.key.seconds, $0.key.source) < ($1.key.seconds, $1.key.source) }.flatMap { key, parts -> [Result<Record, HealthSkip>] in
            guard let mass = parts.first(where: { $0.kind == .bodyMass }) else { return parts.map { _ in .failure(.noBodyMass) } }
            func value(_ kind: HealthSampleKind) -> Double? { parts.first { $0.kind == kind }?.value }
            let header = HealthRecordHeader.make(
                identity: ["weight", key.source, String(key.seconds)], at: mass.start, sourceName: key.source, deviceName: mass.deviceName,
                userEntered: mass.userEntered)
            do throws(RecordValidationError) {
                return [.success(.weight(try WeightRecord(
                    header: header, weight: mass.value, unit: mass.unit ?? .kilograms, height: value(.height),
                    freeMass: value(.leanBodyMass), fatPercent: value(.bodyFatPercentage), bmi: value(.bodyMassIndex))))]
            } catch {
                return [.failure(.absurd(error.description))]
            }
        }
    }
}
