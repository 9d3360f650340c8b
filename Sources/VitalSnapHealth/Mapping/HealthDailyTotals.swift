import Foundation
import VitalSnapRecords

/// The samples the SDK files as daily totals, summed: movement (steps, distance, flights, energy, exercise time,
/// hours stood, mindful minutes) per day and source into routine records, food and drink per day and source into
/// nutrition records, sleep per night and source into sleep records. Memory grows with days × sources, not samples.
///
/// A day's record has an activity ID made of the day and the source, not the values: a later import with more of
/// that day's samples replaces the day's total rather than adding a second one.
public final class HealthDailyTotals {
    public struct Contribution: Equatable, Sendable {
        var kind: HealthSampleKind
        /// In the record field's unit (steps, metres, kcal, seconds, grams, mg, mL).
        var amount: Double
        var start: HealthDate
        var end: HealthDate
        var sourceName: String
        var sleepStage: SleepStage?
    }

    /// HealthKit's sleep analysis values (`HKCategoryValueSleepAnalysis...`).
    public enum SleepStage: Equatable, Sendable {
        case inBed, asleep, core, deep, rem, awake

        init?(categoryValue: String) {
            switch categoryValue {
            case "HKCategoryValueSleepAnalysisInBed": self = .inBed
            case "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified": self = .asleep
            case "HKCategoryValueSleepAnalysisAsleepCore": self = .core
            case "HKCategoryValueSleepAnalysisAsleepDeep": self = .deep
            case "HKCategoryValueSleepAnalysisAsleepREM": self = .rem
            case "HKCategoryValueSleepAnalysisAwake": self = .awake
            default: return nil
            }
        }
    }

    struct Key: Hashable {
        var family: RecordType
        /// Local days since 1970.
        var day: Int
        var source: String
        /// The local hour (0-23) for hourly totals (intraday steps); nil for daily ones.
        var hour: Int?
    }

    /// Totals per hour instead of per day (`health history --sets intraday`).
    public let hourly: Bool

    public init(hourly: Bool = false) {
        self.hourly = hourly
    }

    struct Sums {
        var values: [HealthSampleKind: Double] = [:]
        var sleep: [SleepStage: Double] = [:]
        /// The record's timestamp: the day's first sample (routine, nutrition) or the night's wake-up (sleep).
        var stamp: HealthDate
    }

    private var sums: [Key: Sums] = [:]
    /// The last few keys added to, and where their sums are: an export's samples come in runs of one day and a
    /// few sources taking turns, and finding the entry again by hashing the key (with its source's name) was most
    /// of the work of adding. Emptied when an entry is added (that may move the others).
    private var recent: [(key: Key, index: Dictionary<Key, Sums>.Index)] = []
    /// Keys kept in `recent`.
    static let recentKeys = 4

    /// Whether samples of `kind` are summed into daily totals (rather than making records of their own).
    public static func isTotal(_ kind: HealthSampleKind) -> Bool {
        switch kind {
        case .steps, .distance, .flights, .activeEnergy, .basalEnergy, .exerciseTime, .standHour, .mindfulSession,
            .sleepAnalysis, .dietaryEnergy,
            .dietaryCarbohydrates, .dietaryFat, .dietaryFiber, .dietaryProtein, .dietarySodium, .dietaryWater:
            true
        default: false
        }
    }

    /// The record family a kind's totals go into.
    public static func family(of kind: HealthSampleKind) -> RecordType {
        switch kind {
        case .sleepAnalysis: .sleep
        case .dietaryEnergy, .dietaryCarbohydrates, .dietaryFat, .dietaryFiber, .dietaryProtein, .dietarySodium, .dietaryWater:
            .nutrition
        default: .routine
        }
    }

    /// The day a contribution counts for: a night belongs to the day it ends on (a sleep from 23:00 to 07:00 is
    /// the next morning's); everything else to the day it starts on. As local days since 1970.
    public static func dayNumber(of contribution: Contribution) -> Int {
        family(of: contribution.kind) == .sleep ? contribution.end.localDayNumber : contribution.start.localDayNumber
    }

    public func add(_ contribution: Contribution) {
        let family = Self.family(of: contribution.kind)
        let day = Self.dayNumber(of: contribution)
        let hour = hourly ? contribution.start.localHour : nil
        let key = Key(family: family, day: day, source: contribution.sourceName, hour: hour)
        let stamp = hour.map { _ in contribution.start.startOfLocalHour } ?? (family == .sleep ? contribution.end : contribution.start)
        let index: Dictionary<Key, Sums>.Index
        if let position = recent.indices.first(where: { recent[$0].key == key }) {
            index = recent[position].index
        } else if let found = sums.index(forKey: key) {
            index = found
            if recent.count == Self.recentKeys { recent.removeFirst() }
            recent.append((key, index))
        } else {
            sums[key] = Sums(stamp: stamp)
            index = sums.index(forKey: key)!
            recent = [(key, index)]
        }
        // In place: a copy of the entry would copy its dictionaries for every sample.
        Self.accumulate(contribution, byHour: hour != nil, into: &sums.values[index])
    }

    private static func accumulate(_ contribution: Contribution, byHour: Bool, into entry: inout Sums) {
        if let stage = contribution.sleepStage {
            entry.sleep[stage, default: 0] += contribution.amount
            if contribution.end > entry.stamp { entry.stamp = contribution.end }
        } else {
            entry.values[contribution.kind, default: 0] += contribution.amount
            if !byHour, contribution.start < entry.stamp { entry.stamp = contribution.start }
        }
    }

    /// The routine record's extras for what its fields have no place for: hours stood, minutes of mindful sessions.
    static let standHoursKey = "stand_hours", mindfulMinutesKey = "mindful_minutes"
    static let secondsPerMinute = 60.0

    /// A sum as extras text: `7`, `12.5`.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func inOrder(_ a: Key, _ b: Key) -> Bool {
        if a.day != b.day { return a.day < b.day }
        if a.hour != b.hour { return (a.hour ?? -1) < (b.hour ?? -1) }
        if a.family != b.family { return a.family.rawValue < b.family.rawValue }
        return a.source < b.source
    }

    /// The totals as records, in day order; a total Core refuses (a day of 2 million steps) is a skip.
    /// Each record is made as it is taken: an export of years made over a hundred thousand of them, and an array
    /// of them all was the import's largest allocation, at its end.
    public func records() -> some Sequence<(outcome: Result<Record, HealthSkip>, day: String)> {
        sums.keys.sorted(by: Self.inOrder).lazy.compactMap { [sums] key in
            sums[key].flatMap { self.record(key, $0) }.map { ($0, HealthDate.dayText(key.day)) }
        }
    }

    private func record(_ key: Key, _ sums: Sums) -> Result<Record, HealthSkip>? {
        var header = HealthRecordHeader.make(
            identity: [key.family.rawValue + (key.hour.map { "-hour-\($0)" } ?? ""), key.source, HealthDate.dayText(key.day)],
            at: sums.stamp,
            sourceName: key.source, deviceName: nil,
            userEntered: false)
        let v = { (kind: HealthSampleKind) -> Double? in sums.values[kind].map(HealthRecordMapper.rounded) }
        do throws(RecordValidationError) {
            let record: Record
            switch key.family {
            case .routine:
                let calories = [v(.activeEnergy), v(.basalEnergy)].compactMap { $0 }
                if let hours = v(.standHour) { header.extras[Self.standHoursKey] = Self.text(hours) }
                if let seconds = v(.mindfulSession) {
                    header.extras[Self.mindfulMinutesKey] = Self.text(HealthRecordMapper.rounded(seconds / Self.secondsPerMinute))
                }
                record = .routine(try RoutineRecord(
                    header: header, steps: v(.steps), distance: v(.distance), floors: v(.flights),
                    caloriesBurned: calories.isEmpty ? nil : calories.reduce(0, +), activeDuration: v(.exerciseTime)))
            case .nutrition:
                record = .nutrition(try NutritionRecord(
                    header: header, calories: v(.dietaryEnergy), carbohydrates: v(.dietaryCarbohydrates), fat: v(.dietaryFat),
                    fiber: v(.dietaryFiber), protein: v(.dietaryProtein), sodium: v(.dietarySodium), water: v(.dietaryWater)))
            default:
                let stages = sums.sleep
                let asleep: [SleepStage] = [.core, .deep, .rem, .asleep]
                let staged: Double = asleep.reduce(0) { $0 + (stages[$1] ?? 0) }
                // Only "in bed" (older watches and apps): that is the night's sleep as recorded.
                guard let total = staged > 0 ? staged : stages[.inBed] else { return nil }
                record = .sleep(try SleepRecord(
                    header: header, totalSleep: HealthRecordMapper.rounded(total), awake: stages[.awake], deep: stages[.deep],
                    light: stages[.core], rem: stages[.rem]))
            }
            return .success(record)
        } catch {
            return .failure(.absurd(error.description))
        }
    }
}
