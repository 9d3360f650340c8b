import Foundation
import VitalSnapCore
import VitalSnapRecords

/// From a finished read to the upload queue: each value made into a record, the new ones queued for the
/// session's user, and the meter's anchor moved past the records read, in that order (so a crash between them
/// repeats a read, which queues nothing twice, rather than losing one).
public struct BLERecordDelivery: Sendable {
    public struct Summary: Sendable {
        /// Records queued now.
        public var queued: [Record] = []
        /// Records already in the queue (the same activity ID): read before, not queued again.
        public var alreadyQueued = 0
        /// Values that made no record, with the reason.
        public var skipped: [BLESkippedReading] = []
    }

    public let queue: UploadQueue
    public let owner: String?
    public let anchors: BLEAnchorStore
    /// The offset of the device's clock from UTC: a device's date-time has no zone; it is taken to be this
    /// machine's local time, as it is for the person who set the device's clock.
    public let deviceUTCOffset: UTCOffset

    public init(queue: UploadQueue, owner: String?, anchors: BLEAnchorStore, deviceUTCOffset: UTCOffset = UTCOffset(timeZone: .current, at: Date())) {
        self.queue = queue
        self.owner = owner
        self.anchors = anchors
        self.deviceUTCOffset = deviceUTCOffset
    }

    /// What each value of `outcome` becomes, in order.
    public func readings(_ outcome: BLEReadOutcome) -> [BLEReadingOutcome] {
        let mapper = BLERecordMapper(peripheral: outcome.peripheral, deviceAddress: outcome.address, deviceUTCOffset: deviceUTCOffset)
        return outcome.payloads.map { payload in
            mapper.records(
                characteristic: payload.characteristic, payload: payload.bytes, context: payload.context ?? outcome.weightScaleFeature,
                receivedAt: payload.receivedAt)
        }
    }

    /// Queues the records among `readings` (those the person accepted) and advances the meter's anchor.
    public func deliver(_ outcome: BLEReadOutcome, readings: [BLEReadingOutcome]) throws -> Summary {
        var summary = Summary()
        for reading in readings {
            switch reading {
            case .record(let record):
                do {
                    try queue.submit(record, owner: owner)
                    summary.queued.append(record)
                } catch QueueError.duplicateActivityID {
                    summary.alreadyQueued += 1
                }
            case .skipped(let reason):
                summary.skipped.append(reason)
            }
        }
        let glucose = BLEUUID.full(BLEUUID.short(GlucoseMeasurement.uuid))
        let sequenceNumbers = outcome.payloads
            .filter { $0.characteristic == glucose }
            .compactMap { BLEMeasurementPayload.sequenceNumber($0.bytes) }
        if let last = sequenceNumbers.max() {
            try anchors.advance(to: last, peripheralID: outcome.peripheral.id, address: outcome.address)
        }
        return summary
    }
}
