/// A Bluetooth device as BlueZ last described it (`org.bluez.Device1`).
public struct BlueZDevice: Equatable, Sendable {
    public var path: String
    public var address: String
    /// The advertised local name; nil until one was seen.
    public var name: String?
    /// Advertised or resolved service UUIDs, 128-bit lowercase.
    public var uuids: [String]
    public var paired: Bool
    public var connected: Bool
    public var servicesResolved: Bool
    /// Present while the device advertises and discovery is on.
    public var rssi: Int?

    init?(path: String, properties: BlueZObjectTree.Properties) {
        guard let address = properties["Address"]?.string else { return nil }
        self.path = path
        self.address = address
        name = properties["Name"]?.string
        uuids = (properties["UUIDs"]?.stringArray ?? []).map { $0.lowercased() }
        paired = properties["Paired"]?.bool ?? false
        connected = properties["Connected"]?.bool ?? false
        servicesResolved = properties["ServicesResolved"]?.bool ?? false
        rssi = properties["RSSI"]?.integer
    }
}

/// A GATT characteristic of a connected device (`org.bluez.GattCharacteristic1`), with its service's UUID.
public struct BlueZCharacteristic: Equatable, Sendable {
    public var path: String
    public var uuid: String
    public var serviceUUID: String
    public var flags: [String]
}
