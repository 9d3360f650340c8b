import Foundation
import VitalSnapCore

/// Which catalog peripherals passive reading listens for (`ble-passive.json` in the data directory): set by
/// `ble passive set`, restored by `ble passive run` when it starts, and removed when the session ends.
public struct BLEPassiveSettings: Sendable {
    struct Stored: Codable, Equatable {
        var peripheralIDs: [Int]
    }

    private let file: JSONStateFile<Stored>

    public init(directory: DataDirectory) {
        file = JSONStateFile("ble-passive.json", in: directory)
    }

    public func peripheralIDs() throws(StorageError) -> [Int] {
        try file.load()?.peripheralIDs ?? []
    }

    /// Replaces the set (sorted, each once); an empty set turns passive reading off.
    public func set(_ ids: [Int]) throws(StorageError) {
        let unique = Array(Set(ids)).sorted()
        if unique.isEmpty {
            file.delete()
        } else {
            try file.save(Stored(peripheralIDs: unique))
        }
    }

    public func clear() {
        file.delete()
    }
}
