/// What a HealthKit sample type is to VitalSnap: which record it goes into, and how.
public enum HealthSampleKind: Equatable, Hashable, Sendable {
    // Point samples, one record each.
    case bloodGlucose
    case heartRate, restingHeartRate, bodyTemperature, oxygenSaturation
    /// Only inside a blood pressure correlation: the top-level copies Apple also writes are the same samples.
    case bloodPressureSystolic, bloodPressureDiastolic
    case bodyMass
    /// Filed in the weight record of the same moment and source (a scale writes them together).
    case bodyMassIndex, bodyFatPercentage, leanBodyMass, height
    // Summed per day and source into one routine record.
    case steps, distance, flights, activeEnergy, basalEnergy, exerciseTime
    /// Categories of the SDK's routine set, summed per day and source into the routine record's extras (its fields
    /// have no place for them): the hours stood, and the minutes of mindful sessions.
    case standHour, mindfulSession
    /// Summed per night into one sleep record.
    case sleepAnalysis
    /// Summed per day and source into one nutrition record.
    case dietaryEnergy, dietaryCarbohydrates, dietaryFat, dietaryFiber, dietaryProtein, dietarySodium, dietaryWater

    /// The HealthKit identifier of each kind VitalSnap maps (Apple's spellings, as the export writes them).
    public static let byIdentifier: [String: HealthSampleKind] = [
        "HKQuantityTypeIdentifierBloodGlucose": .bloodGlucose,
        "HKQuantityTypeIdentifierHeartRate": .heartRate,
        "HKQuantityTypeIdentifierRestingHeartRate": .restingHeartRate,
        "HKQuantityTypeIdentifierBodyTemperature": .bodyTemperature,
        "HKQuantityTypeIdentifierOxygenSaturation": .oxygenSaturation,
        "HKQuantityTypeIdentifierBloodPressureSystolic": .bloodPressureSystolic,
        "HKQuantityTypeIdentifierBloodPressureDiastolic": .bloodPressureDiastolic,
        "HKQuantityTypeIdentifierBodyMass": .bodyMass,
        "HKQuantityTypeIdentifierBodyMassIndex": .bodyMassIndex,
        "HKQuantityTypeIdentifierBodyFatPercentage": .bodyFatPercentage,
        "HKQuantityTypeIdentifierLeanBodyMass": .leanBodyMass,
        "HKQuantityTypeIdentifierHeight": .height,
        "HKQuantityTypeIdentifierStepCount": .steps,
        "HKQuantityTypeIdentifierDistanceWalkingRunning": .distance,
        "HKQuantityTypeIdentifierFlightsClimbed": .flights,
        "HKQuantityTypeIdentifierActiveEnergyBurned": .activeEnergy,
        "HKQuantityTypeIdentifierBasalEnergyBurned": .basalEnergy,
        "HKQuantityTypeIdentifierAppleExerciseTime": .exerciseTime,
        "HKCategoryTypeIdentifierAppleStandHour": .standHour,
        "HKCategoryTypeIdentifierMindfulSession": .mindfulSession,
        "HKCategoryTypeIdentifierSleepAnalysis": .sleepAnalysis,
        "HKQuantityTypeIdentifierDietaryEnergyConsumed": .dietaryEnergy,
        "HKQuantityTypeIdentifierDietaryCarbohydrates": .dietaryCarbohydrates,
        "HKQuantityTypeIdentifierDietaryFatTotal": .dietaryFat,
        "HKQuantityTypeIdentifierDietaryFiber": .dietaryFiber,
        "HKQuantityTypeIdentifierDietaryProtein": .dietaryProtein,
        "HKQuantityTypeIdentifierDietarySodium": .dietarySodium,
        "HKQuantityTypeIdentifierDietaryWater": .dietaryWater,
    ]

    /// The correlation whose samples make one blood pressure record.
    public static let bloodPressureCorrelation = "HKCorrelationTypeIdentifierBloodPressure"
}
