import Foundation
import VitalSnapCore

/// Per meter, the last glucose record queued from it (`ble-anchors.json` in the data directory): the next read
/// asks only for records after it, so records are queued once however often a meter is read. A meter is its
/// catalog id and its Bluetooth address (two meters of one model are two meters).
public struct BLEAnchorStore: Sendable {
    struct Anchor: Codable, Equatable {
        var sequenceNumber: UInt16
        var updated: Date
    }

    private let file: JSONStateFile<[String: Anchor]>

    public init(directory: DataDirectory) {
        file = JSONStateFile("ble-anchors.json", in: directory)
    }

    static func key(peripheralID: Int, address: String) -> String { "\(peripheralID)/\(address.uppercased())" }

    /// The sequence number of the last record queued from this meter; nil before its first read.
    public func lastSequenceNumber(peripheralID: Int, address: String) throws(StorageError) -> UInt16? {
        try file.load()?[Self.key(peripheralID: peripheralID, address: address)]?.sequenceNumber
    }

    /// Remembers `sequenceNumber` as the last record queued from this meter (only ever forward).
    public func advance(to sequenceNumber: UInt16, peripheralID: Int, address: String) throws(StorageError) {
        var anchors = try file.load() ?? [:]
        let key = Self.key(peripheralID: peripheralID, address: address)
        if let current = anchors[key]?.sequenceNumber, current >= sequenceNumber { return }
        anchors[key] = Anchor(sequenceNumber: sequenceNumber, updated: Date())
        try file.save(anchors)
    }

    /// Forgets every meter (a new user's session starts from their meters' first records).
    public func clear() {
        file.delete()
    }
}
