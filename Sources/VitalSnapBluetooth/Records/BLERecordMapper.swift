import Foundation
import VitalSnapRecords

/// Turns what one peripheral sent into Core records in canonical units, with the header every Bluetooth record
/// carries: `validated` (the device itself produced the value), VitalSnap as source, the maker as original
/// source, the model as device, the catalog id, `connection_type` `bluetooth`, and an activity ID derived from
/// the reading's identity, so a stored reading fetched again (a glucose meter's memory is read whole each time)
/// gets the same ID and the server keeps it once.
///
/// A value that gives no record gives a `BLESkippedReading` instead; nothing here throws or traps on a device's
/// bytes, and a value Core finds impossible is a skipped reading too.
public struct BLERecordMapper: Sendable {
    public let peripheral: BLEPeripheral
    /// The device's Bluetooth address, as the adapter reports it (case is ignored).
    public let deviceAddress: String
    /// The UTC offset the device's clock keeps: its date-times are read at it, and the records carry it.
    public let deviceUTCOffset: UTCOffset

    /// Separates the parts of the name an activity ID is derived from.
    static let identitySeparator = "|"

    public init(peripheral: BLEPeripheral, deviceAddress: String, deviceUTCOffset: UTCOffset) {
        self.peripheral = peripheral
        self.deviceAddress = deviceAddress.uppercased()
        self.deviceUTCOffset = deviceUTCOffset
    }

    var clock: DeviceClock { DeviceClock(offset: deviceUTCOffset) }

    /// The one entry point for a value read from `characteristic` (a 16-bit SIG UUID such as `2A18`, BlueZ's
    /// 128-bit form of it, or a vendor UUID): decoded and mapped. `context` is the companion value where a
    /// characteristic has one: for 2A18 the Glucose Measurement Context (2A34) the meter sent after it, for 2A9D
    /// the scale's Weight Scale Feature (2A9E); ignored for the others.
    public func records(characteristic: String, payload: [UInt8], context: [UInt8]?, receivedAt: Date) -> BLEReadingOutcome {
        let uuid = BLEUUID.normalized(characteristic)
        do throws(GATTDecodeError) {
            switch uuid {
            case BLEUUID.short(GlucoseMeasurement.uuid):
                let measurement = try GlucoseMeasurement(payload)
                let glucoseContext: GlucoseMeasurementContext? = if let context { try GlucoseMeasurementContext(context) } else { nil }
                return record(glucose: measurement, context: glucoseContext, receivedAt: receivedAt)
            case BLEUUID.short(BloodPressureMeasurement.uuid):
                return record(bloodPressure: try BloodPressureMeasurement(payload), payload: payload, receivedAt: receivedAt)
            case BLEUUID.short(TemperatureMeasurement.uuid):
                return record(temperature: try TemperatureMeasurement(payload), payload: payload, receivedAt: receivedAt)
            case BLEUUID.short(WeightMeasurement.uuid):
                let feature: WeightScaleFeature? = if let context { try WeightScaleFeature(context) } else { nil }
                return record(weight: try WeightMeasurement(payload, feature: feature), payload: payload, receivedAt: receivedAt)
            case BLEUUID.short(PLXSpotCheckMeasurement.uuid):
                return record(spotCheck: try PLXSpotCheckMeasurement(payload), payload: payload, receivedAt: receivedAt)
            case BLEUUID.short(PLXContinuousMeasurement.uuid):
                return record(continuous: try PLXContinuousMeasurement(payload), payload: payload, receivedAt: receivedAt)
            case BLEUUID.short(HeartRateMeasurement.uuid):
                return record(heartRate: try HeartRateMeasurement(payload), payload: payload, receivedAt: receivedAt)
            case NoninOximetryFrame.characteristicUUID:
                return record(nonin: try NoninOximetryFrame(payload), payload: payload, receivedAt: receivedAt)
            default:
                return .skipped(.unsupportedCharacteristic(uuid))
            }
        } catch {
            return .skipped(.undecodable(error))
        }
    }

    // MARK: Common to every record

    /// The header of a record read from `characteristic`; `identity` tells this measurement from every other
    /// the same device sends on it.
    func header(characteristic: String, identity: String, timestamp: Date, extras: [String: String] = [:]) -> RecordHeader {
        let name = [String(peripheral.id), deviceAddress, characteristic, identity].joined(separator: Self.identitySeparator)
        var allExtras = extras
        allExtras[BLEExtrasKey.connectionType] = BLEExtrasKey.bluetoothConnection
        return RecordHeader(
            activityID: ActivityID.derived(from: name),
            timestamp: timestamp,
            utcOffset: deviceUTCOffset,
            originalSource: peripheral.manufacturer,
            device: peripheral.model,
            peripheralID: peripheral.id,
            validated: true,
            extras: allExtras)
    }

    /// The identity of a measurement that has no sequence number: its own time stamp where it has one (the
    /// device's text, unknown parts and all), else the second it was received, and its bytes.
    func identity(timestamp: GATTDateTime?, receivedAt: Date, payload: [UInt8]) -> String {
        let time = timestamp?.description ?? RecordTimestamp.string(from: receivedAt, offset: .utc)
        return time + Self.identitySeparator + payload.map { String(format: "%02X", $0) }.joined()
    }

    /// The time of a live measurement: its time stamp where the device knows the date, else when it arrived.
    func liveTimestamp(_ timestamp: GATTDateTime?, receivedAt: Date) -> Date {
        timestamp.flatMap { clock.date(of: $0) } ?? receivedAt
    }

    /// A record Core accepts, or the reason it refused it.
    func validated(_ make: () throws(RecordValidationError) -> Record) -> BLEReadingOutcome {
        do {
            return .record(try make())
        } catch {
            return .skipped(.invalid(error))
        }
    }
}
