import Foundation
import Logging

/// Pairs with and reads from the catalog's devices through BlueZ, one operation at a time (the SDK's
/// `VLDBluetoothPeripheralController`): find the device by its advertised name and service, connect, and take
/// its values: a glucose meter's stored records through the record access control point, any other device's
/// measurements as it indicates them. What it returns are the values as sent; `BLERecordMapper` makes records.
public final class BLEController: @unchecked Sendable {
    public let client: BlueZClient
    public var timings: BLETimings
    /// Told what the operation is doing; called on the operation's thread.
    public var onEvent: @Sendable (BLEControllerEvent) -> Void = { _ in }

    private let logger = Logger(label: "vitalsnap.bluetooth")
    private let state = NSLock()
    private var inProgress = false
    private var cancelRequested = false

    public init(client: BlueZClient, timings: BLETimings = BLETimings()) {
        self.client = client
        self.timings = timings
    }

    /// Whether a pairing or read is running.
    public var operationInProgress: Bool {
        state.lock()
        defer { state.unlock() }
        return inProgress
    }

    /// Stops the running operation at its next step; it fails with `.cancelled`.
    public func cancel() {
        state.lock()
        cancelRequested = inProgress
        state.unlock()
    }

    private func exclusively<T>(_ body: () throws(BLEError) -> T) throws(BLEError) -> T {
        state.lock()
        guard !inProgress else {
            state.unlock()
            throw .busy
        }
        inProgress = true
        cancelRequested = false
        state.unlock()
        defer {
            state.lock()
            inProgress = false
            cancelRequested = false
            state.unlock()
        }
        return try body()
    }

    private func checkCancelled() throws(BLEError) {
        state.lock()
        defer { state.unlock() }
        if cancelRequested { throw .cancelled }
    }

    // MARK: - Pairing

    /// Finds the device, connects and pairs (the agent answers a PIN or passkey request), then disconnects.
    @discardableResult
    public func pair(_ peripheral: BLEPeripheral, agent: PairingAgent) throws(BLEError) -> BlueZDevice {
        try exclusively { () throws(BLEError) in
            try Self.checkReadable(peripheral)
            let device = try find(peripheral)
            defer { try? client.disconnect(device: device.path) }
            if device.paired {
                onEvent(.paired(address: device.address))
                return device
            }
            try connect(device, peripheral)
            do {
                try client.register(agent)
            } catch {
                throw .pairingFailure("BlueZ refused the pairing agent: \(error)")
            }
            defer { client.unregister(agent) }
            do throws(BusError) {
                try client.pair(device: device.path, timeout: timings.pairing)
            } catch {
                throw Self.pairingError(error)
            }
            onEvent(.paired(address: device.address))
            // Pair's reply means paired; the Paired property's signal may not have been applied yet.
            var paired = client.device(device.path) ?? device
            paired.paired = true
            return paired
        }
    }

    static func pairingError(_ error: BusError) -> BLEError {
        switch error.remoteName {
        case "org.bluez.Error.AuthenticationFailed": .pairingFailure("the device refused the PIN or passkey")
        case "org.bluez.Error.AuthenticationCanceled", "org.bluez.Error.AuthenticationRejected":
            .pairingFailure("no PIN or passkey was given")
        case "org.bluez.Error.AuthenticationTimeout": .pairingFailure("the device did not complete pairing in time")
        case "org.bluez.Error.ConnectionAttemptFailed": .connectionFailure("\(error)")
        default:
            if case .timeout = error { .pairingFailure("no answer from the device in time") } else { .pairingFailure("\(error)") }
        }
    }

    // MARK: - Reading

    /// Finds and reads the device. For a glucose meter only records with a sequence number after the one
    /// `anchor` gives for the found device's address are asked for (all when nil).
    public func read(_ peripheral: BLEPeripheral, anchor: (_ address: String) -> UInt16? = { _ in nil }) throws(BLEError) -> BLEReadOutcome {
        try exclusively { () throws(BLEError) in
            try Self.checkReadable(peripheral)
            let device = try find(peripheral)
            return try readFound(device, peripheral, afterSequenceNumber: anchor(device.address))
        }
    }

    /// Reads a device already found (passive reading finds devices itself).
    public func read(device: BlueZDevice, _ peripheral: BLEPeripheral, afterSequenceNumber: UInt16? = nil) throws(BLEError) -> BLEReadOutcome {
        try exclusively { () throws(BLEError) in
            try Self.checkReadable(peripheral)
            return try readFound(device, peripheral, afterSequenceNumber: afterSequenceNumber)
        }
    }

    private func readFound(_ device: BlueZDevice, _ peripheral: BLEPeripheral, afterSequenceNumber: UInt16?) throws(BLEError) -> BLEReadOutcome {
        if peripheral.requiresPairing, !device.paired {
            throw .pairingFailure("\(peripheral.name) must be paired first: vitalsnap ble pair \(peripheral.id)")
        }
        try connect(device, peripheral)
        defer { try? client.disconnect(device: device.path) }
        let characteristics = client.characteristics(of: device.path)
        guard let wanted = peripheral.characteristic.map(BLEUUID.full),
            let measurement = characteristics.first(where: { $0.uuid == wanted })
        else {
            throw .communicationFailure(
                "\(device.address) has no characteristic \(peripheral.characteristic ?? "(none in the catalog)")")
        }
        let payloads: [BLEMeasurementPayload]
        let racp = characteristics.first { $0.uuid == BLEUUID.full("2A52") && $0.serviceUUID == measurement.serviceUUID }
        if let racp {
            let context = characteristics.first { $0.uuid == BLEUUID.full("2A34") && $0.serviceUUID == measurement.serviceUUID }
            payloads = try GlucoseRecordTransfer(
                client: client, device: device, measurement: measurement, context: context, controlPoint: racp,
                timeout: timings.reading(for: peripheral), onValue: { [onEvent] count in onEvent(.received(count: count)) },
                checkCancelled: checkCancelled
            ).run(afterSequenceNumber: afterSequenceNumber)
        } else {
            payloads = try collectIndications(device, measurement, peripheral)
        }
        var feature: [UInt8]?
        if measurement.uuid == BLEUUID.full("2A9D"),
            let featureCharacteristic = characteristics.first(where: { $0.uuid == BLEUUID.full("2A9E") })
        {
            feature = try? client.readValue(featureCharacteristic.path)
        }
        guard !payloads.isEmpty else {
            throw .noReading(afterSequenceNumber == nil ? "the device sent no measurement" : "no record after the last one read")
        }
        return BLEReadOutcome(
            peripheral: peripheral, address: device.address, name: device.name ?? "", payloads: payloads,
            weightScaleFeature: feature)
    }

    /// Devices that send their measurements when notifications are on (cuffs, thermometers, scales, oximeters,
    /// heart rate straps): the first within the reading timeout, the rest until a short silence.
    private func collectIndications(_ device: BlueZDevice, _ characteristic: BlueZCharacteristic, _ peripheral: BLEPeripheral)
        throws(BLEError) -> [BLEMeasurementPayload]
    {
        do {
            try client.startNotify(characteristic.path)
        } catch {
            throw .communicationFailure("could not turn on notifications of \(BLEUUID.normalized(characteristic.uuid)): \(error)")
        }
        var payloads: [BLEMeasurementPayload] = []
        var deadline = Date().addingTimeInterval(timings.reading(for: peripheral))
        while true {
            try checkCancelled()
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { break }
            let event: BlueZEvent?
            do { event = try client.nextEvent(timeout: min(left, Self.cancelCheckInterval)) } catch { throw .communicationFailure("\(error)") }
            switch event {
            case .value(let path, let bytes) where path == characteristic.path:
                payloads.append(BLEMeasurementPayload(characteristic: characteristic.uuid, bytes: bytes, receivedAt: Date()))
                onEvent(.received(count: payloads.count))
                if Self.streamingCharacteristics.contains(characteristic.uuid) { return payloads }
                deadline = Date().addingTimeInterval(timings.settle)
            case .deviceChanged(let path, let keys, _) where path == device.path && keys.contains("Connected"):
                if client.device(path)?.connected != true {
                    // A cuff disconnects once it has sent everything: that ends the transfer, not an error.
                    guard !payloads.isEmpty else { throw .communicationFailure("the device disconnected before sending a value") }
                    return payloads
                }
            case .deviceRemoved(let path) where path == device.path:
                guard !payloads.isEmpty else { throw .communicationFailure("the device went away before sending a value") }
                return payloads
            default:
                break
            }
        }
        if payloads.isEmpty {
            throw .readingTimeout("no value from \(device.address) in \(Self.seconds(timings.reading(for: peripheral)))")
        }
        return payloads
    }

    /// Characteristics that stream a value every second or so for as long as they are on (heart rate, PLX
    /// continuous, Nonin 3230): the first value is the reading, not the first of a batch.
    static let streamingCharacteristics: Set<String> = [
        BLEUUID.full("2A37"), BLEUUID.full("2A5F"), BLEUUID.full("0AAD7EA0-0D60-11E2-8E3C-0002A5D5C51B"),
    ]

    /// How often a wait looks at `cancel()`.
    static let cancelCheckInterval = 0.25

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }

    // MARK: - Finding and connecting

    /// A peripheral VitalSnap can read; else the reason it cannot.
    static func checkReadable(_ peripheral: BLEPeripheral) throws(BLEError) {
        if peripheral.disabled { throw .unsupported("\(peripheral.name) is disabled in the catalog") }
        if case .unsupported(let reason) = peripheral.readSupport { throw .unsupported("\(peripheral.name): \(reason)") }
    }

    /// Discovery until an advertising device with the peripheral's name appears, within the connection timeout.
    func find(_ peripheral: BLEPeripheral) throws(BLEError) -> BlueZDevice {
        guard let adapter = client.adapterPath else { throw .bluetoothTurnedOff("this machine has no Bluetooth adapter") }
        guard client.isPowered(adapter: adapter) else { throw .bluetoothTurnedOff("the adapter \(adapter) is powered off") }
        do {
            try client.startDiscovery(adapter: adapter, uuids: peripheral.advertisedService.map { [$0] } ?? [])
        } catch {
            if error.remoteName == "org.bluez.Error.NotReady" { throw .bluetoothTurnedOff("the adapter is not ready") }
            throw .connectionFailure("discovery did not start: \(error)")
        }
        defer { client.stopDiscovery(adapter: adapter) }
        onEvent(.readyToRead(peripheralID: peripheral.id))
        let timeout = timings.connection(for: peripheral)
        let deadline = Date().addingTimeInterval(timeout)
        var advertising: Set<String> = Set(client.devices.filter { $0.rssi != nil }.map(\.path))
        while true {
            if let device = advertising.sorted().compactMap(client.device).first(where: { matches($0, peripheral) }) {
                onEvent(.found(address: device.address, name: device.name ?? ""))
                return device
            }
            try checkCancelled()
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw .connectionTimeout("no \(peripheral.name) advertising within \(Self.seconds(timeout)): \(peripheral.instructions)")
            }
            do {
                switch try client.nextEvent(timeout: min(left, Self.cancelCheckInterval)) {
                case .deviceAdded(let path): advertising.insert(path)
                case .deviceChanged(let path, _, true): advertising.insert(path)
                case .deviceRemoved(let path): advertising.remove(path)
                case .adapterChanged(let path, _) where !client.isPowered(adapter: path):
                    throw BLEError.bluetoothTurnedOff("the adapter was powered off")
                default: break
                }
            } catch let error as BLEError {
                throw error
            } catch {
                throw .communicationFailure("\(error)")
            }
        }
    }

    /// The catalog's name patterns, compiled once: devices are matched on every advertisement.
    private let patternLock = NSLock()
    private var patterns: [Int: NSRegularExpression] = [:]

    private func pattern(_ peripheral: BLEPeripheral) -> NSRegularExpression? {
        patternLock.lock()
        defer { patternLock.unlock() }
        if let compiled = patterns[peripheral.id] { return compiled }
        let compiled = peripheral.namePattern()
        patterns[peripheral.id] = compiled
        return compiled
    }

    func matches(_ device: BlueZDevice, _ peripheral: BLEPeripheral) -> Bool {
        guard let name = device.name, let pattern = pattern(peripheral), BLEPeripheral.name(name, matches: pattern) else {
            return false
        }
        guard let service = peripheral.advertisedService else { return true }
        // BlueZ filters by service already; a device whose advertised services are unknown still counts.
        return device.uuids.isEmpty || device.uuids.contains(BLEUUID.full(service))
    }

    /// Connects and waits until BlueZ has resolved the device's services, within the connection timeout.
    func connect(_ device: BlueZDevice, _ peripheral: BLEPeripheral) throws(BLEError) {
        let timeout = timings.connection(for: peripheral)
        let deadline = Date().addingTimeInterval(timeout)
        do {
            try client.connect(device: device.path, timeout: timeout)
        } catch {
            if case .timeout = error { throw .connectionTimeout("\(device.address) did not connect within \(Self.seconds(timeout))") }
            if error.remoteName == "org.bluez.Error.NotReady" { throw .bluetoothTurnedOff("the adapter is not ready") }
            throw .connectionFailure("\(device.address): \(error)")
        }
        // The reply may come before the signals that led to it have been applied: they are applied in turn here.
        while client.device(device.path)?.servicesResolved != true {
            try checkCancelled()
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw .connectionTimeout("the services of \(device.address) were not resolved in time") }
            let event: BlueZEvent?
            do { event = try client.nextEvent(timeout: min(left, Self.cancelCheckInterval)) } catch { throw .communicationFailure("\(error)") }
            if case .deviceChanged(device.path, let keys, _) = event, keys.contains("Connected"), client.device(device.path)?.connected == false {
                throw .connectionFailure("\(device.address) disconnected while its services were resolved")
            }
        }
        onEvent(.connected(address: device.address))
        logger.debug("connected to \(device.address), services resolved")
    }
}

/// What one read took from a device: its values as sent, and what is needed to decode them.
public struct BLEReadOutcome: Equatable, Sendable {
    public var peripheral: BLEPeripheral
    public var address: String
    public var name: String
    public var payloads: [BLEMeasurementPayload]
    /// A weight scale's feature value (2A9E), which says its resolution.
    public var weightScaleFeature: [UInt8]?
}
