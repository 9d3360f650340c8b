import Foundation

/// The JSON coders for records. Records write their own timestamps (local time with offset, which a
/// `dateEncodingStrategy` cannot do), so these only fix the output form.
public enum RecordJSON {
    /// Sorted keys make the bytes of a record reproducible (tests, checksums, queue deduplication); unescaped
    /// slashes keep `mg/dL` readable.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        JSONDecoder()
    }

    /// A record's JSON, the same bytes as `makeEncoder()` gives (checked in the tests), written by
    /// `RecordJSONWriter`: an import encodes hundreds of thousands of records.
    public static func encode(_ record: Record) throws -> Data {
        var writer = RecordJSONWriter()
        try record.writeFields(into: &writer)
        return Data(writer.object())
    }

    /// Any other value, as `makeEncoder()` writes it.
    public static func encode(_ value: some Encodable) throws -> Data {
        try makeEncoder().encode(value)
    }

    public static func decode(_ data: Data) throws -> Record {
        try makeDecoder().decode(Record.self, from: data)
    }
}
