import Foundation
import Logging

/// Passive reading (the SDK's `VLDBluetoothPassiveManager`): listens for the chosen peripherals, reads each
/// device when it advertises, hands the values on, then leaves that device alone until it has stopped
/// advertising for `quietTime` seconds, so one measurement is read once, not again on every advertisement.
public final class BLEPassiveReader: @unchecked Sendable {
    public enum Event: Equatable, Sendable {
        /// Listening (again) for the peripherals.
        case readyToRead(peripheralIDs: [Int])
        /// A device was read; `queued` of its values became new records.
        case read(peripheralID: Int, address: String, values: Int, queued: Int)
        case failed(peripheralID: Int?, address: String?, error: BLEError)
        /// An interactive read holds the Bluetooth lock: this device waits until it ends.
        case suspended(peripheralID: Int, address: String)
    }

    /// The SDK's advice: after a read, the device is ignored until it has been quiet for about 15 seconds.
    public static let defaultQuietTime = 15.0
    /// How often the loop looks at `shouldStop`, and retries discovery when the adapter is off.
    static let pollInterval = 0.25

    public let controller: BLEController
    public let peripherals: [BLEPeripheral]
    public var quietTime: Double
    public var onEvent: @Sendable (Event) -> Void = { _ in }
    /// The last sequence number queued from a meter, so only newer records are asked for.
    public var anchor: @Sendable (_ peripheral: BLEPeripheral, _ address: String) -> UInt16? = { _, _ in nil }
    /// Queues (and uploads) what a read returned; returns how many records were new.
    public var deliver: @Sendable (BLEReadOutcome) throws -> Int = { _ in 0 }
    /// Taken around each read; nil for no cross-process lock.
    public var lock: BLEOperationLock?

    private let logger = Logger(label: "vitalsnap.bluetooth")
    private var client: BlueZClient { controller.client }
    private var lastSeen: [String: Date] = [:]
    private var ignoredUntilQuiet: Set<String> = []

    public init(controller: BLEController, peripherals: [BLEPeripheral], quietTime: Double = BLEPassiveReader.defaultQuietTime) {
        self.controller = controller
        self.peripherals = peripherals
        self.quietTime = quietTime
    }

    /// Runs until `shouldStop` says so. Failures of single reads are events, not the end: only a bus that goes
    /// away ends the run with an error.
    public func run(shouldStop: @Sendable () -> Bool) throws(BusError) {
        var discovering = false
        var suspendedReported: Set<String> = []
        defer { if discovering, let adapter = client.adapterPath { client.stopDiscovery(adapter: adapter) } }
        while !shouldStop() {
            if !discovering {
                discovering = startDiscovery()
                if !discovering {
                    _ = try client.nextEvent(timeout: Self.pollInterval)
                    continue
                }
            }
            forgetQuietDevices()
            if let (device, peripheral) = nextDevice() {
                if let lock, !lock.tryLock() {
                    if suspendedReported.insert(device.path).inserted {
                        onEvent(.suspended(peripheralID: peripheral.id, address: device.address))
                    }
                } else {
                    suspendedReported.remove(device.path)
                    if let adapter = client.adapterPath { client.stopDiscovery(adapter: adapter) }
                    discovering = false
                    read(device, peripheral)
                    lock?.unlock()
                    continue
                }
            }
            switch try client.nextEvent(timeout: Self.pollInterval) {
            case .deviceAdded(let path), .deviceChanged(let path, _, true):
                lastSeen[path] = Date()
            case .adapterChanged(let path, _) where !client.isPowered(adapter: path):
                onEvent(.failed(peripheralID: nil, address: nil, error: .bluetoothTurnedOff("the adapter was powered off")))
                discovering = false
            default:
                break
            }
        }
    }

    private func startDiscovery() -> Bool {
        guard let adapter = client.adapterPath, client.isPowered(adapter: adapter) else { return false }
        // Filtering by service only works when every chosen peripheral advertises one.
        let services = peripherals.compactMap(\.advertisedService)
        do {
            try client.startDiscovery(adapter: adapter, uuids: services.count == peripherals.count ? services : [])
        } catch {
            logger.debug("passive discovery did not start: \(error)")
            return false
        }
        onEvent(.readyToRead(peripheralIDs: peripherals.map(\.id)))
        return true
    }

    /// A device ignored after its read comes back once it has been silent for `quietTime`; devices silent that
    /// long are forgotten (phones passing by with ever new random addresses must not pile up).
    private func forgetQuietDevices() {
        let now = Date()
        for path in ignoredUntilQuiet where now.timeIntervalSince(lastSeen[path] ?? .distantPast) >= quietTime {
            ignoredUntilQuiet.remove(path)
            logger.debug("\(path) has been quiet for \(quietTime) s: it will be read when it advertises again")
        }
        lastSeen = lastSeen.filter { now.timeIntervalSince($0.value) < quietTime }
    }

    /// An advertising device of a chosen peripheral that is not being ignored.
    private func nextDevice() -> (BlueZDevice, BLEPeripheral)? {
        let now = Date()
        for (path, seen) in lastSeen.sorted(by: { $0.key < $1.key })
        where !ignoredUntilQuiet.contains(path) && now.timeIntervalSince(seen) < quietTime {
            guard let device = client.device(path) else { continue }
            if let peripheral = peripherals.first(where: { controller.matches(device, $0) }) { return (device, peripheral) }
        }
        return nil
    }

    private func read(_ device: BlueZDevice, _ peripheral: BLEPeripheral) {
        defer {
            ignoredUntilQuiet.insert(device.path)
            lastSeen[device.path] = Date()
        }
        do {
            let outcome = try controller.read(
                device: device, peripheral, afterSequenceNumber: anchor(peripheral, device.address))
            let queued = try deliver(outcome)
            onEvent(.read(peripheralID: peripheral.id, address: device.address, values: outcome.payloads.count, queued: queued))
        } catch let error as BLEError {
            onEvent(.failed(peripheralID: peripheral.id, address: device.address, error: error))
        } catch {
            onEvent(.failed(peripheralID: peripheral.id, address: device.address, error: .communicationFailure("\(error)")))
        }
    }
}
