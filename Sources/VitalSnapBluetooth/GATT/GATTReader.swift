/// Reads the fields of a characteristic's value in order, little-endian as GATT has them, every read checked
/// against the bytes left: a value cut short gives `GATTDecodeError.tooShort` naming the field, never a trap.
struct GATTReader {
    let characteristic: String
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8], characteristic: String) {
        self.bytes = bytes
        self.characteristic = characteristic
    }

    var remaining: Int { bytes.count - offset }

    private mutating func take(_ count: Int, _ field: String) throws(GATTDecodeError) -> ArraySlice<UInt8> {
        guard remaining >= count else {
            throw .tooShort(characteristic: characteristic, field: field, needed: count, available: remaining)
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func uint8(_ field: String) throws(GATTDecodeError) -> UInt8 {
        try take(1, field).first!
    }

    mutating func uint16(_ field: String) throws(GATTDecodeError) -> UInt16 {
        let b = try take(2, field)
        return UInt16(b[b.startIndex]) | UInt16(b[b.startIndex + 1]) << 8
    }

    mutating func int16(_ field: String) throws(GATTDecodeError) -> Int16 {
        Int16(bitPattern: try uint16(field))
    }

    mutating func uint24(_ field: String) throws(GATTDecodeError) -> UInt32 {
        let b = try take(3, field)
        return UInt32(b[b.startIndex]) | UInt32(b[b.startIndex + 1]) << 8 | UInt32(b[b.startIndex + 2]) << 16
    }

    mutating func uint32(_ field: String) throws(GATTDecodeError) -> UInt32 {
        let low = UInt32(try uint16(field))
        return low | UInt32(try uint16(field)) << 16
    }

    mutating func sfloat(_ field: String) throws(GATTDecodeError) -> MedicalFloat {
        MedicalFloat(sfloat: try uint16(field))
    }

    mutating func float(_ field: String) throws(GATTDecodeError) -> MedicalFloat {
        MedicalFloat(float: try uint32(field))
    }

    mutating func dateTime(_ field: String) throws(GATTDecodeError) -> GATTDateTime {
        let year = try uint16(field), month = try uint8(field), day = try uint8(field)
        let hours = try uint8(field), minutes = try uint8(field), seconds = try uint8(field)
        return try GATTDateTime(
            year: Int(year), month: Int(month), day: Int(day), hours: Int(hours), minutes: Int(minutes), seconds: Int(seconds),
            characteristic: characteristic)
    }
}
