import Foundation
import VitalSnapCore
import VitalSnapRecords

/// The part of an import that depends on nothing but the element and the import's fixed choices (the subscribed
/// types, the day range), done on the preparing threads (`HealthImportStages`): whether the element is imported,
/// its outcome, and its record's JSON. The importer's thread gets only what it needs from that (`Prepared`) and
/// keeps what depends on the import so far: anchors, day totals, pulses, the queue. The element itself goes no
/// further than the preparing thread.
final class HealthElementPreparer {
    /// What the importer does with one element: the type the summary counts it under (a workout under the
    /// workout identifier; nil when unreadable), the decision, and a heart rate for the importer's pulse finder
    /// (whatever is subscribed). A tuple, which the importer takes apart by moving its parts: a struct's field
    /// was copied out of it, retaining the strings and buffers of its record, and the struct then released them.
    typealias Prepared = (countedType: String?, decision: Decision, heartRate: HealthPulseFinder.HeartRate?)

    enum Decision {
        case skip(HealthSkip)
        /// Taken, unless `anchor` says it was delivered before (point samples, correlations and workouts; a day
        /// total's contribution has none: whole days are compared when they are summed).
        case take(Taken, anchor: Anchor?)
        case unreadable(element: String, reason: String)
    }

    /// What an element's creation is compared with: the anchor of its type.
    struct Anchor {
        var type: String
        var created: Int64
    }

    enum Taken {
        /// A record, validated and encoded.
        case entry(QueueEntry)
        /// A blood pressure, held until every heart rate of the export has been seen.
        case pressure(HealthPulseFinder.Key, Record)
        /// A total's contribution, a weight part, a skip; or a record that could not be encoded here (the importer
        /// encodes it again, and says why).
        case outcome(HealthRecordMapper.Outcome)
    }

    private let subscribed: Set<String>
    private let dayNumbers: ClosedRange<Int>?
    private let mapper = HealthRecordMapper()
    private var run = HealthTypeRun()

    init(subscribed: Set<String>, dayNumbers: ClosedRange<Int>?) {
        self.subscribed = subscribed
        self.dayNumbers = dayNumbers
    }

    private func inRange(_ day: Int) -> Bool { dayNumbers.map { $0.contains(day) } ?? true }

    func prepare(_ element: HealthElement) -> Prepared {
        switch element {
        case .sample(let sample):
            run.enter(sample.type, subscribed: subscribed)
            return (sample.type, decide(sample), HealthPulseFinder.HeartRate(sample))
        case .correlation(let correlation):
            return (correlation.type, decide(correlation), nil)
        case .workout(let workout):
            return (HealthSubscriptionSet.workoutIdentifier, decide(workout), nil)
        case .unreadable(let element, let reason):
            return (nil, .unreadable(element: element, reason: reason), nil)
        }
    }

    private func decide(_ sample: HealthSample) -> Decision {
        guard run.isSubscribed else { return .skip(.notSubscribed) }
        // Point samples are filtered by day and anchor here; totals by day when they are summed.
        guard run.isPoint else { return .take(Self.encoded(mapper.map(sample)), anchor: nil) }
        guard inRange(sample.startDate.localDayNumber) else { return .skip(.outsideRange) }
        let anchor = Anchor(type: sample.type, created: (sample.creationDate ?? sample.startDate).seconds)
        return .take(Self.encoded(mapper.map(sample)), anchor: anchor)
    }

    private func decide(_ correlation: HealthCorrelation) -> Decision {
        // A food correlation's nutrients are also written at the top level, where they are read.
        guard correlation.type == HealthSampleKind.bloodPressureCorrelation else { return .skip(.unknownType(correlation.type)) }
        guard correlation.samples.contains(where: { subscribed.contains($0.type) }) else { return .skip(.notSubscribed) }
        guard inRange(correlation.startDate.localDayNumber) else { return .skip(.outsideRange) }
        let anchor = Anchor(type: correlation.type, created: (correlation.creationDate ?? correlation.startDate).seconds)
        switch mapper.map(correlation) {
        case .record(let record): return .take(.pressure(HealthPulseFinder.Key(correlation), record), anchor: anchor)
        case let outcome: return .take(.outcome(outcome), anchor: anchor)
        }
    }

    private func decide(_ workout: HealthWorkout) -> Decision {
        let type = HealthSubscriptionSet.workoutIdentifier
        guard subscribed.contains(type) else { return .skip(.notSubscribed) }
        guard inRange(workout.startDate.localDayNumber) else { return .skip(.outsideRange) }
        return .take(Self.encoded(mapper.map(workout)), anchor: Anchor(type: type, created: (workout.creationDate ?? workout.startDate).seconds))
    }

    /// A record's entry; anything else, or a record that cannot be encoded, as its outcome.
    private static func encoded(_ outcome: HealthRecordMapper.Outcome) -> Taken {
        guard case .record(let record) = outcome, let entry = try? QueueEntry(record) else { return .outcome(outcome) }
        return .entry(entry)
    }
}
