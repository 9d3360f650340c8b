import Foundation
import VitalSnapCore

/// The part of an import that depends on nothing but the element and the import's fixed choices (the subscribed
/// types, the day range), done on a thread of its own (`HealthImportStages`): mapping an element that will be
/// imported to its outcome, and encoding the record's JSON. The importer's thread keeps what depends on the
/// import so far (anchors, day totals, pulses) and the queue.
final class HealthElementPreparer {
    /// An element's outcome, made ahead; `entry` is the record ready for the queue when it is final.
    struct Prepared {
        var outcome: HealthRecordMapper.Outcome
        var entry: QueueEntry?
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

    /// The outcome of `element` when the importer would map it: subscribed, and (for point samples, correlations
    /// and workouts) in the day range. Nil otherwise; the importer counts why.
    func prepare(_ element: HealthElement) -> Prepared? {
        switch element {
        case .sample(let sample):
            run.enter(sample.type, subscribed: subscribed)
            guard run.isSubscribed else { return nil }
            if run.isPoint, !inRange(sample.startDate.localDayNumber) { return nil }
            return Self.encoded(mapper.map(sample))
        case .correlation(let correlation):
            guard correlation.type == HealthSampleKind.bloodPressureCorrelation,
                correlation.samples.contains(where: { subscribed.contains($0.type) }), inRange(correlation.startDate.localDayNumber)
            else { return nil }
            // A blood pressure's record may still get its pulse at the end: encoded then.
            return Prepared(outcome: mapper.map(correlation), entry: nil)
        case .workout(let workout):
            guard subscribed.contains(HealthSubscriptionSet.workoutIdentifier), inRange(workout.startDate.localDayNumber) else { return nil }
            return Self.encoded(mapper.map(workout))
        case .unreadable:
            return nil
        }
    }

    /// A record's outcome with its entry (the importer makes it itself when this cannot: it then throws there).
    private static func encoded(_ outcome: HealthRecordMapper.Outcome) -> Prepared {
        guard case .record(let record) = outcome else { return Prepared(outcome: outcome, entry: nil) }
        return Prepared(outcome: outcome, entry: try? QueueEntry(record))
    }
}
