/// The SDK's subscription sets (`VLDHealthKitSubscriptionSet`), each a group of HealthKit types.
public enum HealthSubscriptionSet: String, CaseIterable, Codable, Sendable {
    case routine, diabetes, weight, fitness, sleep, basicNutrition, reproductiveHealth, biometrics

    /// The workout type's identifier, as the SDK subscribes to it.
    public static let workoutIdentifier = "HKWorkoutTypeIdentifier"

    /// The HealthKit identifiers of the set (as the SDK's headers describe them).
    public var identifiers: [String] {
        switch self {
        case .routine:
            ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierDistanceWalkingRunning",
             "HKQuantityTypeIdentifierFlightsClimbed", "HKQuantityTypeIdentifierActiveEnergyBurned",
             "HKQuantityTypeIdentifierBasalEnergyBurned", "HKCategoryTypeIdentifierAppleStandHour",
             "HKQuantityTypeIdentifierAppleExerciseTime", "HKCategoryTypeIdentifierMindfulSession",
             "HKQuantityTypeIdentifierDistanceWheelchair", "HKQuantityTypeIdentifierPushCount"]
        case .diabetes: ["HKQuantityTypeIdentifierBloodGlucose"]
        case .weight:
            ["HKQuantityTypeIdentifierBodyMass", "HKQuantityTypeIdentifierHeight", "HKQuantityTypeIdentifierBodyFatPercentage",
             "HKQuantityTypeIdentifierLeanBodyMass", "HKQuantityTypeIdentifierBodyMassIndex"]
        case .fitness: [Self.workoutIdentifier, "HKQuantityTypeIdentifierNikeFuel", "HKQuantityTypeIdentifierDistanceCycling"]
        case .sleep: ["HKCategoryTypeIdentifierSleepAnalysis"]
        case .basicNutrition:
            ["HKQuantityTypeIdentifierDietaryCalcium", "HKQuantityTypeIdentifierDietaryCarbohydrates",
             "HKQuantityTypeIdentifierDietaryCholesterol", "HKQuantityTypeIdentifierDietaryFiber",
             "HKQuantityTypeIdentifierDietaryIron", "HKQuantityTypeIdentifierDietaryPotassium",
             "HKQuantityTypeIdentifierDietaryProtein", "HKQuantityTypeIdentifierDietaryFatSaturated",
             "HKQuantityTypeIdentifierDietarySodium", "HKQuantityTypeIdentifierDietarySugar",
             "HKQuantityTypeIdentifierDietaryFatTotal", "HKQuantityTypeIdentifierDietaryEnergyConsumed",
             "HKQuantityTypeIdentifierDietaryWater"]
        case .reproductiveHealth:
            ["HKCategoryTypeIdentifierSexualActivity", "HKCategoryTypeIdentifierCervicalMucusQuality",
             "HKCategoryTypeIdentifierIntermenstrualBleeding", "HKCategoryTypeIdentifierMenstrualFlow",
             "HKCategoryTypeIdentifierOvulationTestResult", "HKQuantityTypeIdentifierBasalBodyTemperature"]
        case .biometrics:
            ["HKQuantityTypeIdentifierBloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureDiastolic",
             "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierBodyTemperature",
             "HKQuantityTypeIdentifierOxygenSaturation", "HKQuantityTypeIdentifierRestingHeartRate"]
        }
    }
}
