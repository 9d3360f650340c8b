/// How hard a workout was, as the person rates it. Raw values are the JSON values of a fitness record's
/// `intensity`; the three levels of the usual activity guidelines, so any app can map its own scale onto them.
public enum FitnessIntensity: String, Codable, Sendable, Hashable, CaseIterable {
    case low
    case moderate
    case vigorous
}
