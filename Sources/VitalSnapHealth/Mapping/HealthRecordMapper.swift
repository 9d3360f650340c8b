import Foundation
import VitalSnapRecords

/// Turns the export's elements into Core records in canonical units: one record per point sample (glucose,
/// heart rate, temperature, SpO2, body mass), one biometrics record per blood pressure correlation, one fitness
/// record per workout; the samples that are summed per day or night go to `HealthDailyTotals` instead.
public struct HealthRecordMapper {
    public enum Outcome: Equatable, Sendable {
        case record(Record)
        /// Goes into a day's (or night's) total.
        case total(HealthDailyTotals.Contribution)
        /// Goes into the weight record of its moment.
        case weightPart(HealthWeightParts.Part)
        case skipped(HealthSkip)
    }

    /// HealthKit's meal-time metadata: 1 preprandial, 2 postprandial.
    static let mealTimeKey = "HKBloodGlucoseMealTime"

    private let deviceNames = HealthDeviceNames()

    public init() {}

    public func map(_ sample: HealthSample) -> Outcome {
        guard let kind = HealthSampleKind.byIdentifier[sample.type] else { return .skipped(.unknownType(sample.type)) }
        // Categories carry a name, not a number, as their value.
        switch kind {
        case .sleepAnalysis: return sleep(sample)
        case .standHour, .mindfulSession: return routineCategory(kind, sample)
        default: break
        }
        guard let text = sample.value else { return .skipped(.notANumber(type: sample.type, value: "")) }
        guard let value = Double(text), value.isFinite else { return .skipped(.notANumber(type: sample.type, value: text)) }
        let header = { (name: String) in
            HealthRecordHeader.make(
                identity: [name, sample.sourceName, String(sample.startDate.seconds), String(sample.endDate.seconds), text,
                           sample.unit ?? ""],
                at: sample.startDate, sourceName: sample.sourceName, deviceName: deviceNames.name(sample.device),
                userEntered: sample.metadata(HealthRecordHeader.userEnteredKey) == "1")
        }
        let unknownUnit = HealthSkip.unknownUnit(type: sample.type, unit: sample.unit ?? "")
        do throws(RecordValidationError) {
            switch kind {
            case .bloodGlucose:
                guard let unit = HealthUnits.glucoseUnit(sample.unit) else { return .skipped(unknownUnit) }
                let meal: MealRelationship? =
                    switch sample.metadata(Self.mealTimeKey) {
                    case "1": .before
                    case "2": .after
                    default: nil
                    }
                return .record(.diabetes(try DiabetesRecord(
                    header: header("glucose"), bloodGlucose: value, unit: unit, relationshipToMeal: meal)))
            case .heartRate, .restingHeartRate:
                guard sample.unit == "count/min" else { return .skipped(unknownUnit) }
                return .record(.biometrics(try BiometricsRecord(header: header(kind == .heartRate ? "heart-rate" : "resting-heart-rate"), restingHeartRate: value)))
            case .bodyTemperature:
                guard let unit = HealthUnits.temperatureUnit(sample.unit) else { return .skipped(unknownUnit) }
                return .record(.biometrics(try BiometricsRecord(header: header("temperature"), temperature: value, temperatureUnit: unit)))
            case .oxygenSaturation:
                // HealthKit writes saturation as a fraction with the unit "%": 0.97 is 97 %.
                guard sample.unit == "%" else { return .skipped(unknownUnit) }
                return .record(.biometrics(try BiometricsRecord(header: header("spo2"), spo2: value * Self.percentPerFraction)))
            case .bodyMass, .bodyMassIndex, .bodyFatPercentage, .leanBodyMass, .height:
                return weightPart(kind, sample, value) ?? .skipped(unknownUnit)
            case .bloodPressureSystolic, .bloodPressureDiastolic:
                return .skipped(.partOfCorrelation)
            case .steps, .distance, .flights, .activeEnergy, .basalEnergy, .exerciseTime, .dietaryEnergy,
                .dietaryCarbohydrates, .dietaryFat, .dietaryFiber, .dietaryProtein, .dietarySodium, .dietaryWater:
                return total(kind, sample, value)
            case .sleepAnalysis, .standHour, .mindfulSession:
                preconditionFailure("categories are mapped above, before their value is read as a number")
            }
        } catch {
            return .skipped(.absurd(error.description))
        }
    }

    static let percentPerFraction = 100.0

    /// A part of a weight record: body mass as displayed, the rest in the record fields' units.
    private func weightPart(_ kind: HealthSampleKind, _ sample: HealthSample, _ value: Double) -> Outcome? {
        var unit: WeightUnit?
        let canonical: Double
        switch kind {
        case .bodyMass, .leanBodyMass:
            guard let weightUnit = HealthUnits.weightUnit(sample.unit) else { return nil }
            if kind == .bodyMass {
                unit = weightUnit
                canonical = value
            } else {
                canonical = weightUnit.toCanonical(value)
            }
        case .height:
            guard let metres = HealthUnits.metres(sample.unit) else { return nil }
            canonical = Self.rounded(value * metres * Self.centimetresPerMetre)
        case .bodyFatPercentage:
            // A fraction with the unit "%", as for SpO2.
            guard sample.unit == "%" else { return nil }
            canonical = Self.rounded(value * Self.percentPerFraction)
        default:
            guard sample.unit == "count" else { return nil }
            canonical = value
        }
        return .weightPart(HealthWeightParts.Part(
            kind: kind, value: canonical, unit: unit, start: sample.startDate, sourceName: sample.sourceName,
            deviceName: deviceNames.name(sample.device),
            userEntered: sample.metadata(HealthRecordHeader.userEnteredKey) == "1"))
    }

    static let centimetresPerMetre = 100.0

    /// A blood pressure correlation's systolic and diastolic samples as one biometrics record.
    public func map(_ correlation: HealthCorrelation) -> Outcome {
        guard correlation.type == HealthSampleKind.bloodPressureCorrelation else { return .skipped(.unknownType(correlation.type)) }
        func value(_ kind: HealthSampleKind) -> Double? {
            correlation.samples.first { HealthSampleKind.byIdentifier[$0.type] == kind && $0.unit == "mmHg" }
                .flatMap { $0.value.flatMap(Double.init) }
        }
        guard let systolic = value(.bloodPressureSystolic), let diastolic = value(.bloodPressureDiastolic) else {
            return .skipped(.incompleteBloodPressure)
        }
        let userEntered = (correlation.metadata + correlation.samples.flatMap(\.metadata))
            .contains { $0.key == HealthRecordHeader.userEnteredKey && $0.value == "1" }
        let header = HealthRecordHeader.make(
            identity: ["blood-pressure", correlation.sourceName, String(correlation.startDate.seconds),
                       DecimalRounding.shortText(systolic), DecimalRounding.shortText(diastolic)],
            at: correlation.startDate, sourceName: correlation.sourceName, deviceName: deviceNames.name(correlation.device),
            userEntered: userEntered)
        do {
            return .record(.biometrics(try BiometricsRecord(header: header, systolic: systolic, diastolic: diastolic)))
        } catch {
            return .skipped(.absurd(error.description))
        }
    }

    /// A workout as a fitness record: its totals from the modern `WorkoutStatistics` when present, else from the
    /// old attributes.
    public func map(_ workout: HealthWorkout) -> Outcome {
        let duration = workout.duration.flatMap { d in HealthUnits.seconds(workout.durationUnit ?? "min").map { d * $0 } }
            ?? Double(workout.endDate.seconds - workout.startDate.seconds)
        var distance: Double?
        var calories: Double?
        for statistic in workout.statistics {
            guard let sum = statistic.sum else { continue }
            if statistic.type.hasPrefix("HKQuantityTypeIdentifierDistance"), let metres = HealthUnits.metres(statistic.unit) {
                distance = (distance ?? 0) + sum * metres
            } else if statistic.type == "HKQuantityTypeIdentifierActiveEnergyBurned", let kcal = HealthUnits.kilocalories(statistic.unit) {
                calories = (calories ?? 0) + sum * kcal
            }
        }
        if distance == nil, let total = workout.totalDistance, let metres = HealthUnits.metres(workout.totalDistanceUnit) {
            distance = total * metres
        }
        if calories == nil, let total = workout.totalEnergyBurned, let kcal = HealthUnits.kilocalories(workout.totalEnergyBurnedUnit) {
            calories = total * kcal
        }
        let header = HealthRecordHeader.make(
            identity: ["workout", workout.sourceName, workout.activityType, String(workout.startDate.seconds),
                       String(workout.endDate.seconds)],
            at: workout.startDate, sourceName: workout.sourceName, deviceName: deviceNames.name(workout.device),
            userEntered: false)
        do {
            return .record(.fitness(try FitnessRecord(
                header: header, activityType: Self.activityName(workout.activityType), startTime: workout.startDate.date,
                distance: distance.map(Self.rounded), duration: Self.rounded(duration), calories: calories.map(Self.rounded))))
        } catch {
            return .skipped(.absurd(error.description))
        }
    }

    /// `HKWorkoutActivityTypeHighIntensityIntervalTraining` → `High Intensity Interval Training`.
    static func activityName(_ type: String) -> String {
        let name = type.hasPrefix("HKWorkoutActivityType") ? String(type.dropFirst("HKWorkoutActivityType".count)) : type
        var words = ""
        for character in name {
            if character.isUppercase, let last = words.last, last.isLowercase { words.append(" ") }
            words.append(character)
        }
        return words
    }

    /// Conversions multiply by inexact factors: kept as Core keeps its own (ten decimals, no binary noise).
    static func rounded(_ value: Double) -> Double { DecimalRounding.converted(value) }

    private func total(_ kind: HealthSampleKind, _ sample: HealthSample, _ value: Double) -> Outcome {
        let factor: Double?
        switch kind {
        case .steps, .flights: factor = sample.unit == "count" ? 1 : nil
        case .distance: factor = HealthUnits.metres(sample.unit)
        case .activeEnergy, .basalEnergy, .dietaryEnergy: factor = HealthUnits.kilocalories(sample.unit)
        case .exerciseTime: factor = HealthUnits.seconds(sample.unit)
        case .dietaryCarbohydrates, .dietaryFat, .dietaryFiber, .dietaryProtein: factor = HealthUnits.grams(sample.unit)
        // Sodium is kept in milligrams, water in millilitres.
        case .dietarySodium: factor = HealthUnits.grams(sample.unit).map { $0 * 1000 }
        case .dietaryWater: factor = HealthUnits.litres(sample.unit).map { $0 * 1000 }
        default: factor = nil
        }
        guard let factor else { return .skipped(.unknownUnit(type: sample.type, unit: sample.unit ?? "")) }
        guard value >= 0 else { return .skipped(.absurd("\(sample.type) of \(value)")) }
        return .total(HealthDailyTotals.Contribution(
            kind: kind, amount: value * factor, start: sample.startDate, end: sample.endDate, sourceName: sample.sourceName))
    }

    /// HealthKit's values of a stand hour: stood in it, or not.
    static let stoodValue = "HKCategoryValueAppleStandHourStood", idleValue = "HKCategoryValueAppleStandHourIdle"

    /// A stand hour adds one hour stood (an idle one nothing); a mindful session its length in seconds.
    private func routineCategory(_ kind: HealthSampleKind, _ sample: HealthSample) -> Outcome {
        let amount: Double
        if kind == .standHour {
            switch sample.value {
            case Self.stoodValue: amount = 1
            case Self.idleValue: amount = 0
            default: return .skipped(.notANumber(type: sample.type, value: sample.value ?? ""))
            }
        } else {
            amount = Double(sample.endDate.seconds - sample.startDate.seconds)
            guard amount >= 0 else { return .skipped(.absurd("a mindful session that ends before it starts")) }
        }
        return .total(HealthDailyTotals.Contribution(
            kind: kind, amount: amount, start: sample.startDate, end: sample.endDate, sourceName: sample.sourceName))
    }

    /// Sleep samples carry the stage as their value's name.
    private func sleep(_ sample: HealthSample) -> Outcome {
        let seconds = Double(sample.endDate.seconds - sample.startDate.seconds)
        guard seconds >= 0 else { return .skipped(.absurd("a sleep sample that ends before it starts")) }
        guard let stage = HealthDailyTotals.SleepStage(categoryValue: sample.value ?? "") else {
            return .skipped(.notANumber(type: sample.type, value: sample.value ?? ""))
        }
        return .total(HealthDailyTotals.Contribution(
            kind: .sleepAnalysis, amount: seconds, start: sample.startDate, end: sample.endDate, sourceName: sample.sourceName,
            sleepStage: stage))
    }
}
