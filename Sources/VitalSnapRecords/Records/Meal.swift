/// Which meal a nutrition record is. Raw values are the JSON values of a nutrition record's `meal`; a record that
/// is a day's total rather than one meal leaves the field out.
public enum Meal: String, Codable, Sendable, Hashable, CaseIterable {
    case breakfast
    case lunch
    case dinner
    case snack
}
