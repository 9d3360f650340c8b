import Foundation
import Logging
import VitalSnapCore
import VitalSnapRecords

/// Reads an export into the upload queue: the XML streamed out of the file or zip, each element mapped to
/// records (point samples at once, daily totals at the end), records queued in batches of one transaction.
///
/// Run twice, or cut short and run again, it queues nothing twice: every record's activity ID comes from its
/// content, and the queue keeps the first of an activity ID. A file broken in the middle keeps what was read
/// before the break (queued, with the day totals so far), and the error names the line.
public final class HealthImporter {
    public struct Progress: Sendable {
        public var bytesRead: Int64
        public var fileSize: Int64
        public var elements: Int
        public var queued: Int
    }

    public let queue: UploadQueue
    public let owner: String?
    /// HealthKit identifiers to import; others are counted as not subscribed.
    public let subscribed: Set<String>
    /// What was delivered before: older elements are skipped, and the new anchors are returned in the summary.
    /// Nil to take everything (history), activity IDs still keeping records from doubling.
    public let anchors: HealthAnchors.Stored?
    /// Only these local days (`health history`); all when nil.
    public var dayRange: ClosedRange<String>?
    /// Steps also summed per hour (`health history --sets intraday`).
    public var hourlySteps = false
    /// Daily totals made at all (`health history` without `summary` makes none).
    public var dailyTotals = true
    /// Records handed to the queue at a time.
    public var batchSize = 5000
    /// Records per queue transaction: few commits (each an fsync and a write of every index page it touched;
    /// the 1 GB export's 542,606 records make three), nothing more held in memory (`UploadQueue.BulkWriter`).
    public var recordsPerCommit = 200_000
    /// Elements between two progress reports.
    public var progressInterval = 20_000

    private let logger = Logger(label: "vitalsnap.health")

    public init(queue: UploadQueue, owner: String?, subscribed: Set<String>, anchors: HealthAnchors.Stored? = nil) {
        self.queue = queue
        self.owner = owner
        self.subscribed = subscribed
        self.anchors = anchors
    }

    /// Imports `located`. Throws only when the queue cannot be written (a full disk); a broken export ends the
    /// import early with `summary.error` set.
    public func run(_ located: HealthExportLocator.Located, progress: (Progress) -> Void = { _ in }) throws -> HealthImportSummary {
        var summary = HealthImportSummary()
        // Holds the queue while a transaction is open: nothing else here touches the queue until `finish`.
        let writer = queue.bulkWriter(owner: owner, recordsPerCommit: recordsPerCommit)
        defer { writer.cancel() }
        var nextAnchors = anchors ?? HealthAnchors.Stored()
        // Records ready for the queue, most made on the preparing thread.
        var batch: [QueueEntry] = []
        batch.reserveCapacity(batchSize)
        let totals = HealthDailyTotals()
        let hours = HealthDailyTotals(hourly: true)
        let weights = HealthWeightParts()

        // The range as day numbers, so a sample's day is compared without being formatted.
        let dayNumbers = dayRange.flatMap { range -> ClosedRange<Int>? in
            guard let first = HealthDate(parsing: range.lowerBound + " 00:00:00 +0000"),
                let last = HealthDate(parsing: range.upperBound + " 00:00:00 +0000")
            else { return nil }
            return first.localDayNumber...last.localDayNumber
        }
        func inRange(_ day: Int) -> Bool { dayNumbers.map { $0.contains(day) } ?? true }
        // The anchor days as numbers too.
        let anchorDays = (anchors?.days ?? [:]).compactMapValues { HealthDate(parsing: $0.day + " 00:00:00 +0000")?.localDayNumber }

        func flush() throws {
            guard !batch.isEmpty else { return }
            let result = try writer.add(batch)
            summary.alreadyQueued += result.alreadyQueued
            for (entry, stored) in zip(batch, result.stored) where stored {
                summary.queuedByRecordType[entry.type.rawValue, default: 0] += 1
            }
            batch.removeAll(keepingCapacity: true)
        }

        /// Adds `entry` to the batch, handing the batch to the queue when it is full.
        func queueEntry(_ entry: consuming QueueEntry) throws {
            batch.append(consume entry)
            if batch.count >= batchSize { try flush() }
        }

        func skip(_ reason: HealthSkip) { summary.skipped[reason.category, default: 0] += 1 }

        func take(_ outcome: HealthRecordMapper.Outcome) throws {
            switch outcome {
            case .record(let record):
                try queueEntry(QueueEntry(record))
            case .total(let contribution):
                if !inRange(HealthDailyTotals.dayNumber(of: contribution)) {
                    skip(.outsideRange)
                    return
                }
                if hourlySteps, contribution.kind == .steps { hours.add(contribution) }
                if !dailyTotals { return }
                if let anchorDay = anchorDays[HealthDailyTotals.family(of: contribution.kind).rawValue],
                    HealthDailyTotals.dayNumber(of: contribution) < anchorDay
                {
                    skip(.alreadyDelivered)
                } else {
                    totals.add(contribution)
                }
            case .weightPart(let part):
                weights.add(part)
            case .skipped(let reason):
                skip(reason)
            }
        }

        var pressures: [(key: HealthPulseFinder.Key, record: Record)] = []
        let pulses = HealthPulseFinder()
        let pipe = HealthImportStages.start(located) { HealthElementPreparer(subscribed: subscribed, dayNumbers: dayNumbers) }
        // If writing the queue fails, the reading and preparing threads are told to stop before the error goes up.
        defer { pipe.cancel() }
        var sinceProgress = 0
        var counts = HealthTypeCounts()
        var anchorRun = HealthAnchorRun()
        while var chunk = pipe.take() {
            let itemCount = chunk.items.count
            // The items come last first: each is moved out of the chunk, not copied.
            while let (countedType, decision, heartRate) = chunk.items.popLast() {
                if let countedType { counts.count(countedType, into: &summary.elementsByType) }
                if let heartRate { pulses.note(heartRate) }
                switch consume decision {
                case .skip(let reason):
                    skip(reason)
                case .unreadable(let element, let reason):
                    summary.unreadable += 1
                    logger.debug("unreadable \(element): \(reason)")
                case .take(let taken, let anchor):
                    if let anchor, anchorRun.deliveredBefore(anchor.type, created: anchor.created, earlier: anchors, next: &nextAnchors) {
                        skip(.alreadyDelivered)
                        continue
                    }
                    switch consume taken {
                    case .entry(let entry):
                        try queueEntry(consume entry)
                    case .pressure(let key, let record):
                        // Held to the end, when every heart rate of the export has been seen.
                        pressures.append((key, record))
                    case .outcome(let outcome):
                        try take(outcome)
                    }
                }
            }
            sinceProgress += itemCount
            counts.flush(into: &summary.elementsByType)
            // A stretch of the file that makes no records (steps, summed to the end) holds no transaction open.
            try writer.commitIfDue()
            if sinceProgress >= progressInterval {
                sinceProgress = 0
                progress(Progress(bytesRead: chunk.bytesRead, fileSize: located.fileSize, elements: summary.elements, queued: summary.queued))
            }
        }
        anchorRun.settle(into: &nextAnchors)
        let ending = pipe.result
        if let error = ending?.error {
            summary.error = error
            logger.info("import stopped early: \(error)")
        }
        try flush()
        // Blood pressures with the pulse of the same moment and source, when the export has one.
        for (key, record) in pressures {
            guard let pulse = pulses.pulse(at: key), let pressure = record.biometrics,
                let withPulse = try? BiometricsRecord(
                    header: pressure.header, systolic: pressure.systolic, diastolic: pressure.diastolic, restingHeartRate: pulse)
            else {
                try queueEntry(QueueEntry(record))
                continue
            }
            try queueEntry(QueueEntry(.biometrics(withPulse)))
        }
        try flush()
        for weight in weights.records() {
            switch weight {
            case .success(let record):
                try queueEntry(QueueEntry(record))
            case .failure(let reason):
                skip(reason)
            }
        }
        for total in hours.records() {
            if case .success(let record) = total.outcome {
                try queueEntry(QueueEntry(record))
            }
        }
        for total in totals.records() {
            switch total.outcome {
            case .success(let record):
                let family = record.type.rawValue
                let entry = try QueueEntry(record)
                let digest = ActivityID.derived(from: String(decoding: entry.json, as: UTF8.self))
                if let anchor = anchors?.days[family], anchor.day == total.day, anchor.digests[record.activityID] == digest {
                    skip(.alreadyDelivered)
                    continue
                }
                // The newest day of each family is the new anchor, with what was queued for it.
                if total.day > nextAnchors.days[family]?.day ?? "" {
                    nextAnchors.days[family] = HealthAnchors.DayAnchor(day: total.day, digests: [:])
                }
                if nextAnchors.days[family]?.day == total.day { nextAnchors.days[family]?.digests[record.activityID] = digest }
                try queueEntry(entry)
            case .failure(let reason):
                skip(reason)
            }
        }
        try flush()
        try writer.finish()
        summary.anchors = nextAnchors
        summary.replacedCharacters = ending?.replacedCharacters ?? 0
        summary.bytesRead = ending?.bytesRead ?? 0
        progress(Progress(bytesRead: summary.bytesRead, fileSize: located.fileSize, elements: summary.elements, queued: summary.queued))
        logger.info(
            "imported \(located.name): \(summary.elements) elements, queued \(summary.queuedByRecordType.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        return summary
    }
}
