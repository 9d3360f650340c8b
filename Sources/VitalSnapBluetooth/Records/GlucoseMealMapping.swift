import VitalSnapRecords

extension GlucoseMeasurementContext.Meal {
    /// Validic's relationship to a meal for the meter's meal field. Preprandial is before a meal, postprandial
    /// after one; fasting is fasting; casual (a test at no set time) is Validic's random. Bedtime has no Validic
    /// value: it is neither before nor after a known meal, and calling it random would lose what the person
    /// chose, so it gives none and the record keeps the word in `extras` (`meal_context`).
    var mealRelationship: MealRelationship? {
        switch self {
        case .preprandial: .before
        case .postprandial: .after
        case .fasting: .fasting
        case .casual: .random
        case .bedtime: nil
        }
    }

    /// What `extras` keeps for a meal field Validic's relationship cannot say.
    var extrasContext: String? {
        self == .bedtime ? BLEExtrasKey.mealContextBedtime : nil
    }
}
