/// The kinds of record VitalSnap makes. The raw value is Validic's name for the type: the key of the ingestion
/// body (`{"diabetes": {...}}`) and the `{record_type}` segment of the mobile API path.
///
/// The camera produces these three; Validic's other types (routine, fitness, sleep, nutrition) get a case here
/// and in `Record` when something produces them.
public enum RecordType: String, Codable, Sendable, Hashable, CaseIterable {
    case diabetes
    case biometrics
    case weight
}
