import Foundation
import Logging

/// BlueZ as seen over D-Bus: its objects (kept current from its signals) and the calls a collector makes:
/// discovery, connect, pair, GATT notifications, reads and writes.
///
/// This is the code that runs against the real `bluetoothd` on the system bus; the tests run it against a
/// stand-in that exports the same interfaces on a private bus. One task uses a client at a time.
public final class BlueZClient: @unchecked Sendable {
    public let bus: BusConnection
    public private(set) var tree = BlueZObjectTree()
    private let logger = Logger(label: "vitalsnap.bluetooth")

    /// How long BlueZ may take over a call that does not wait for the radio (properties, notifications on).
    public var callTimeout = 10.0

    /// Subscribes to BlueZ's signals, then reads its objects (in that order, so no change falls in between).
    public init(bus: BusConnection) throws(BusError) {
        self.bus = bus
        try bus.addMatch("type='signal',sender='\(BlueZNames.service)'")
        try reload()
    }

    /// Reads every object BlueZ exports again.
    public func reload() throws(BusError) {
        let reply = try bus.call(
            destination: BlueZNames.service, path: "/", interface: BlueZNames.objectManager, member: "GetManagedObjects",
            timeout: callTimeout)
        tree.load(managedObjects: reply.first ?? .array(elementSignature: "{oa{sa{sv}}}", []))
    }

    private func call(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = [], timeout: Double? = nil)
        throws(BusError) -> [BusValue]
    {
        logger.trace("\(interface).\(member) on \(path)")
        return try bus.call(
            destination: BlueZNames.service, path: path, interface: interface, member: member, arguments: arguments,
            timeout: timeout ?? callTimeout)
    }

    // MARK: - Adapter

    /// The first adapter (`/org/bluez/hci0` on most machines); nil when there is none.
    public var adapterPath: String? { tree.paths(with: BlueZNames.adapter).first }

    public func isPowered(adapter: String) -> Bool {
        tree.properties(adapter, BlueZNames.adapter)?["Powered"]?.bool ?? false
    }

    /// Discovery over LE for devices advertising one of `uuids` (any device when empty), every advertisement
    /// reported (DuplicateData), so a device's presence can be followed.
    public func startDiscovery(adapter: String, uuids: [String]) throws(BusError) {
        var filter: [String: BusValue] = ["Transport": .string("le"), "DuplicateData": .boolean(true)]
        if !uuids.isEmpty { filter["UUIDs"] = .strings(uuids.map(BLEUUID.full)) }
        _ = try call(adapter, BlueZNames.adapter, "SetDiscoveryFilter", [.options(filter)])
        _ = try call(adapter, BlueZNames.adapter, "StartDiscovery")
    }

    /// Stops discovery; "not discovering" is not an error here.
    public func stopDiscovery(adapter: String) {
        do {
            _ = try call(adapter, BlueZNames.adapter, "StopDiscovery")
        } catch {
            logger.debug("StopDiscovery: \(error)")
        }
    }

    // MARK: - Devices

    public var devices: [BlueZDevice] {
        tree.paths(with: BlueZNames.device).compactMap(device)
    }

    public func device(_ path: String) -> BlueZDevice? {
        tree.properties(path, BlueZNames.device).flatMap { BlueZDevice(path: path, properties: $0) }
    }

    public func connect(device: String, timeout: Double) throws(BusError) {
        _ = try call(device, BlueZNames.device, "Connect", timeout: timeout)
    }

    public func pair(device: String, timeout: Double) throws(BusError) {
        _ = try call(device, BlueZNames.device, "Pair", timeout: timeout)
    }

    public func disconnect(device: String) throws(BusError) {
        _ = try call(device, BlueZNames.device, "Disconnect")
    }

    /// The device's characteristics, each with its service's UUID, in path order (the handle order).
    public func characteristics(of device: String) -> [BlueZCharacteristic] {
        tree.paths(with: BlueZNames.gattCharacteristic).compactMap { path in
            guard path.hasPrefix(device + "/"),
                let properties = tree.properties(path, BlueZNames.gattCharacteristic),
                let uuid = properties["UUID"]?.string,
                let service = properties["Service"]?.string,
                let serviceUUID = tree.properties(service, BlueZNames.gattService)?["UUID"]?.string
            else { return nil }
            return BlueZCharacteristic(
                path: path, uuid: uuid.lowercased(), serviceUUID: serviceUUID.lowercased(),
                flags: properties["Flags"]?.stringArray ?? [])
        }
    }

    // MARK: - GATT

    public func startNotify(_ characteristic: String) throws(BusError) {
        _ = try call(characteristic, BlueZNames.gattCharacteristic, "StartNotify")
    }

    public func stopNotify(_ characteristic: String) throws(BusError) {
        _ = try call(characteristic, BlueZNames.gattCharacteristic, "StopNotify")
    }

    /// Writes with a response ("request"), as a control point must be written.
    public func writeValue(_ characteristic: String, _ bytes: [UInt8]) throws(BusError) {
        _ = try call(
            characteristic, BlueZNames.gattCharacteristic, "WriteValue",
            [.bytes(bytes), .options(["type": .string("request")])])
    }

    public func readValue(_ characteristic: String) throws(BusError) -> [UInt8] {
        let reply = try call(characteristic, BlueZNames.gattCharacteristic, "ReadValue", [.options([:])])
        return reply.first?.byteArray ?? []
    }

    // MARK: - Pairing agent

    /// Exports `agent` and makes it BlueZ's default, so a device that asks for a PIN or passkey gets one.
    public func register(_ agent: PairingAgent) throws(BusError) {
        bus.export(path: agent.path, handler: agent.handler)
        _ = try call(
            BlueZNames.agentManagerPath, BlueZNames.agentManager, "RegisterAgent",
            [.objectPath(agent.path), .string(PairingAgent.capability)])
        _ = try call(BlueZNames.agentManagerPath, BlueZNames.agentManager, "RequestDefaultAgent", [.objectPath(agent.path)])
    }

    public func unregister(_ agent: PairingAgent) {
        _ = try? call(BlueZNames.agentManagerPath, BlueZNames.agentManager, "UnregisterAgent", [.objectPath(agent.path)])
        bus.unexport(path: agent.path)
    }

    // MARK: - Events

    /// The next change BlueZ announces, applied to `tree` first; nil when `timeout` seconds pass without one.
    public func nextEvent(timeout: Double) throws(BusError) -> BlueZEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard let signal = try bus.nextSignal(timeout: max(0, left)) else { return nil }
            if let event = try apply(signal) { return event }
            if left <= 0 { return nil }
        }
    }

    private static let advertisingKeys: Set<String> = ["RSSI", "ManufacturerData", "ServiceData", "TxPower"]

    private func apply(_ signal: BusMessage) throws(BusError) -> BlueZEvent? {
        let arguments = try signal.arguments()
        switch (signal.interface, signal.member) {
        case (BlueZNames.objectManager, "InterfacesAdded"):
            guard arguments.count == 2, let path = arguments[0].string else { return nil }
            tree.add(path: path, interfaces: arguments[1])
            return arguments[1].dictionary?[BlueZNames.device] != nil ? .deviceAdded(path: path) : nil
        case (BlueZNames.objectManager, "InterfacesRemoved"):
            guard arguments.count == 2, let path = arguments[0].string else { return nil }
            let names = arguments[1].stringArray ?? []
            tree.remove(path: path, interfaces: names)
            return names.contains(BlueZNames.device) ? .deviceRemoved(path: path) : nil
        case (BlueZNames.properties, "PropertiesChanged"):
            guard arguments.count >= 2, let path = signal.path, let interface = arguments[0].string else { return nil }
            let changed = arguments[1].dictionary ?? [:]
            let invalidated = arguments.count > 2 ? arguments[2].stringArray ?? [] : []
            tree.change(path: path, interface: interface, changed: arguments[1], invalidated: invalidated)
            let keys = Set(changed.keys).union(invalidated)
            switch interface {
            case BlueZNames.device:
                return .deviceChanged(
                    path: path, keys: keys, advertised: !Self.advertisingKeys.isDisjoint(with: changed.keys))
            case BlueZNames.gattCharacteristic:
                guard let bytes = changed["Value"]?.byteArray else { return nil }
                return .value(characteristic: path, bytes: bytes)
            case BlueZNames.adapter:
                return .adapterChanged(path: path, keys: keys)
            default:
                return nil
            }
        default:
            return nil
        }
    }
}
