/// What BlueZ has exported, as last told: object path → interface → property → value. Filled from
/// `GetManagedObjects` and kept current from `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged`.
public struct BlueZObjectTree: Sendable {
    public typealias Properties = [String: BusValue]
    public private(set) var objects: [String: [String: Properties]] = [:]

    public init() {}

    /// Replaces everything with a `GetManagedObjects` reply (`a{oa{sa{sv}}}`).
    mutating func load(managedObjects: BusValue) {
        objects = [:]
        for (path, interfaces) in managedObjects.dictionary ?? [:] { add(path: path, interfaces: interfaces) }
    }

    /// `InterfacesAdded(o, a{sa{sv}})`.
    mutating func add(path: String, interfaces: BusValue) {
        for (name, properties) in interfaces.dictionary ?? [:] {
            objects[path, default: [:]][name] = Self.properties(properties)
        }
    }

    /// `InterfacesRemoved(o, as)`.
    mutating func remove(path: String, interfaces: [String]) {
        for name in interfaces { objects[path]?[name] = nil }
        if objects[path]?.isEmpty == true { objects[path] = nil }
    }

    /// `PropertiesChanged(s, a{sv}, as)`: the changed values set, the invalidated ones dropped.
    mutating func change(path: String, interface: String, changed: BusValue, invalidated: [String]) {
        guard objects[path]?[interface] != nil else { return }
        for (key, value) in Self.properties(changed) { objects[path]?[interface]?[key] = value }
        for key in invalidated { objects[path]?[interface]?[key] = nil }
    }

    private static func properties(_ value: BusValue) -> Properties {
        (value.dictionary ?? [:]).mapValues(\.unwrapped)
    }

    public func properties(_ path: String, _ interface: String) -> Properties? {
        objects[path]?[interface]
    }

    /// Paths that have `interface`, sorted (so choices between equals are stable).
    public func paths(with interface: String) -> [String] {
        objects.filter { $0.value[interface] != nil }.keys.sorted()
    }
}
