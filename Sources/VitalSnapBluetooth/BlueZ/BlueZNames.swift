/// The names BlueZ's D-Bus API uses (doc/org.bluez.*.rst in BlueZ's sources).
enum BlueZNames {
    static let service = "org.bluez"
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let gattService = "org.bluez.GattService1"
    static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    static let agentManager = "org.bluez.AgentManager1"
    static let agentManagerPath = "/org/bluez"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"
}
