/// The kinds of record VitalSnap makes. The raw value is Validic's name for the type: the key of the ingestion
/// body (`{"diabetes": {...}}`) and the `{record_type}` segment of the mobile API path.
///
/// The camera produces the first three; the activity types (routine, fitness, nutrition, sleep) complete the
/// set of Validic's mobile SDK, so records entered by hand or imported can go through the same queue.
public enum RecordType: String, Codable, Sendable, Hashable, CaseIterable {
    case diabetes
    case biometrics
    case weight
    case routine
    case fitness
    case nutrition
    case sleep
}
