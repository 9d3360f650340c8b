import Foundation

/// One value a device sent, as it came: the characteristic (128-bit UUID, lowercase), the bytes, and for a
/// glucose measurement the context sent with the same sequence number. Decoding and records come after.
public struct BLEMeasurementPayload: Equatable, Sendable {
    public var characteristic: String
    public var bytes: [UInt8]
    public var context: [UInt8]?
    public var receivedAt: Date

    public init(characteristic: String, bytes: [UInt8], context: [UInt8]? = nil, receivedAt: Date) {
        self.characteristic = characteristic
        self.bytes = bytes
        self.context = context
        self.receivedAt = receivedAt
    }

    /// A glucose measurement's or context's sequence number (little-endian, after the flags byte).
    static func sequenceNumber(_ bytes: [UInt8]) -> UInt16? {
        guard bytes.count >= 3 else { return nil }
        return UInt16(bytes[1]) | UInt16(bytes[2]) << 8
    }
}
