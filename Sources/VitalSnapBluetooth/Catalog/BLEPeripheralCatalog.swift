import Foundation

/// The Bluetooth devices VitalSnap knows, shipped with it (`Resources/ble-peripherals.json`, made by
/// `Scripts/make-ble-catalog.py`), looked up by id or type.
public struct BLEPeripheralCatalog: Sendable {
    public let peripherals: [BLEPeripheral]
    private let byID: [Int: BLEPeripheral]

    public init(peripherals: [BLEPeripheral]) throws(BLECatalogError) {
        var byID: [Int: BLEPeripheral] = [:]
        for peripheral in peripherals {
            guard byID.updateValue(peripheral, forKey: peripheral.id) == nil else { throw .duplicateID(peripheral.id) }
            guard (try? NSRegularExpression(pattern: peripheral.advertisedName)) != nil else {
                throw .badNamePattern(peripheral.id, peripheral.advertisedName)
            }
        }
        self.peripherals = peripherals.sorted { $0.id < $1.id }
        self.byID = byID
    }

    /// The catalog shipped with the package.
    public static func builtIn() throws(BLECatalogError) -> BLEPeripheralCatalog {
        guard let url = Bundle.module.url(forResource: "ble-peripherals", withExtension: "json") else {
            throw .unreadable("the bundled ble-peripherals.json is missing")
        }
        return try load(url)
    }

    public static func load(_ url: URL) throws(BLECatalogError) -> BLEPeripheralCatalog {
        let peripherals: [BLEPeripheral]
        do {
            peripherals = try JSONDecoder().decode([BLEPeripheral].self, from: Data(contentsOf: url))
        } catch {
            throw .unreadable("\(url.path): \(error)")
        }
        return try BLEPeripheralCatalog(peripherals: peripherals)
    }

    public subscript(id: Int) -> BLEPeripheral? { byID[id] }

    public func peripherals(of type: BLEPeripheralType) -> [BLEPeripheral] {
        peripherals.filter { $0.type == type }
    }
}

public enum BLECatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(String)
    case duplicateID(Int)
    case badNamePattern(Int, String)

    public var description: String {
        switch self {
        case .unreadable(let detail): "cannot read the Bluetooth catalog: \(detail)"
        case .duplicateID(let id): "the Bluetooth catalog lists peripheral \(id) twice"
        case .badNamePattern(let id, let pattern): "peripheral \(id): the advertised-name pattern \(pattern) is not a regular expression"
        }
    }
}
