import Foundation

/// A glucose meter's stored records, asked for through its record access control point (RACP, 0x2A52):
/// notifications on for the measurement (0x2A18), the context (0x2A34) and the RACP, a "report stored records"
/// request written, then measurements and contexts collected until the meter indicates how the request ended.
///
/// Only a complete transfer counts: a meter that disconnects or goes silent in the middle fails the read, and
/// nothing of it is returned (so nothing half-read is queued, and the next read asks again).
struct GlucoseRecordTransfer {
    let client: BlueZClient
    let device: BlueZDevice
    let measurement: BlueZCharacteristic
    let context: BlueZCharacteristic?
    let controlPoint: BlueZCharacteristic
    /// The longest silence allowed while records arrive (the catalog's reading timeout).
    let timeout: Double
    let onValue: (Int) -> Void
    let checkCancelled: () throws(BLEError) -> Void

    /// The records with a sequence number after `afterSequenceNumber` (all when nil), each with its context.
    func run(afterSequenceNumber: UInt16?) throws(BLEError) -> [BLEMeasurementPayload] {
        for characteristic in [measurement, context, controlPoint].compactMap({ $0 }) {
            do {
                try client.startNotify(characteristic.path)
            } catch {
                throw .communicationFailure("could not turn on notifications of \(BLEUUID.normalized(characteristic.uuid)): \(error)")
            }
        }
        // Sequence numbers are 16 bits; after the largest there is nothing newer to ask for.
        let request: RecordAccessControlPoint.Request =
            switch afterSequenceNumber {
            case nil: .reportAllRecords
            case let last? where last < UInt16.max: .reportRecords(fromSequenceNumber: last + 1)
            case _?: .reportAllRecords
            }
        var records = try transfer(request)
        if records == nil, request != .reportAllRecords {
            // The meter does not filter by sequence number: ask for everything and filter here.
            records = try transfer(.reportAllRecords)
        }
        let all = records ?? []
        guard let afterSequenceNumber else { return all }
        return all.filter { (BLEMeasurementPayload.sequenceNumber($0.bytes) ?? 0) > afterSequenceNumber }
    }

    /// The answers of a meter that cannot filter its records by sequence number.
    static let filterRefusals: Set<RecordAccessControlPoint.ResponseCode> = [
        .operatorNotSupported, .invalidOperator, .operandNotSupported, .invalidOperand,
    ]

    /// Runs one request. Nil when the meter does not support the request's operator (so a plainer one can be
    /// tried); the records, possibly none, when it ended well.
    private func transfer(_ request: RecordAccessControlPoint.Request) throws(BLEError) -> [BLEMeasurementPayload]? {
        do {
            try client.writeValue(controlPoint.path, request.bytes)
        } catch {
            throw .communicationFailure("the meter refused the record request: \(error)")
        }
        var records: [BLEMeasurementPayload] = []
        var contexts: [UInt16: [UInt8]] = [:]
        var deadline = Date().addingTimeInterval(timeout)
        while true {
            try checkCancelled()
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw .readingTimeout(
                    records.isEmpty
                        ? "the meter did not answer the record request within \(BLEController.seconds(timeout))"
                        : "the meter stopped after \(records.count) records; nothing was kept")
            }
            let event: BlueZEvent?
            do {
                event = try client.nextEvent(timeout: min(left, BLEController.cancelCheckInterval))
            } catch {
                throw .communicationFailure("\(error)")
            }
            switch event {
            case .value(let path, let bytes) where path == measurement.path:
                records.append(BLEMeasurementPayload(characteristic: measurement.uuid, bytes: bytes, receivedAt: Date()))
                onValue(records.count)
                deadline = Date().addingTimeInterval(timeout)
            case .value(let path, let bytes) where path == context?.path:
                if let sequence = BLEMeasurementPayload.sequenceNumber(bytes) { contexts[sequence] = bytes }
                deadline = Date().addingTimeInterval(timeout)
            case .value(let path, let bytes) where path == controlPoint.path:
                let response: RecordAccessControlPoint.Response
                do { response = try .init(bytes) } catch { throw .communicationFailure("\(error)") }
                switch response {
                case .response(_, .success):
                    return records.map { record in
                        var record = record
                        record.context = BLEMeasurementPayload.sequenceNumber(record.bytes).flatMap { contexts[$0] }
                        return record
                    }
                case .response(_, .noRecordsFound):
                    return []
                case .response(_, let code)
                where request != .reportAllRecords && Self.filterRefusals.contains(code):
                    return nil
                case .response(_, let code):
                    throw .communicationFailure("the meter answered the record request with \"\(code)\"")
                case .numberOfRecords:
                    break
                }
            case .deviceChanged(let path, let keys, _) where path == device.path && keys.contains("Connected"):
                if client.device(path)?.connected != true {
                    throw .communicationFailure(
                        "the meter disconnected after \(records.count) records, before the transfer ended; nothing was kept")
                }
            case .deviceRemoved(let path) where path == device.path:
                throw .communicationFailure("the meter went away in the middle of the transfer; nothing was kept")
            default:
                break
            }
        }
    }
}
