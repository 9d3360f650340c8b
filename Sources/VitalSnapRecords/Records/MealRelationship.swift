/// When a glucose reading was taken relative to a meal. Raw values are Validic's JSON values
/// (`relationship_to_meal`); "none" is expressed by leaving the field out.
public enum MealRelationship: String, Codable, Sendable, Hashable, CaseIterable {
    case before
    case after
    case fasting
    case random

    /// How the Android SDK names it to people.
    public var displayName: String {
        switch self {
        case .before: "Before Meal"
        case .after: "After Meal"
        case .fasting: "Fasting"
        case .random: "Random"
        }
    }
}
