/// Where a record writes its JSON fields. Each record lists its fields once (`writeFields(into:)`), and they go
/// either into Codable's keyed container (`encode(to:)`: Foundation's `JSONEncoder`, any other encoder) or into a
/// `RecordJSONWriter`, which writes the queue's bytes directly: an import writes hundreds of thousands of records,
/// and Codable's boxes and containers were a third of the thread that made them.
///
/// Keys within one object are distinct (a record's fields and its extras' keys are).
protocol RecordFieldWriter {
    mutating func write(_ value: String, forKey key: String) throws
    /// Throws for a value JSON cannot hold (not finite).
    mutating func write(_ value: Double, forKey key: String) throws
    mutating func write(_ value: Int, forKey key: String) throws
    mutating func write(_ value: Bool, forKey key: String) throws
    /// An object under `key`, whose members `body` writes.
    mutating func writeObject(forKey key: String, _ body: (inout Self) throws -> Void) throws
}

extension RecordFieldWriter {
    mutating func writeIfPresent(_ value: String?, forKey key: String) throws {
        if let value { try write(value, forKey: key) }
    }

    mutating func writeIfPresent(_ value: Int?, forKey key: String) throws {
        if let value { try write(value, forKey: key) }
    }

    mutating func write(_ value: Double, forKey field: RecordField) throws {
        try write(value, forKey: field.rawValue)
    }
}

extension KeyedEncodingContainer: RecordFieldWriter where K == JSONKey {
    mutating func write(_ value: String, forKey key: String) throws { try encode(value, forKey: JSONKey(key)) }
    mutating func write(_ value: Double, forKey key: String) throws { try encode(value, forKey: JSONKey(key)) }
    mutating func write(_ value: Int, forKey key: String) throws { try encode(value, forKey: JSONKey(key)) }
    mutating func write(_ value: Bool, forKey key: String) throws { try encode(value, forKey: JSONKey(key)) }

    mutating func writeObject(forKey key: String, _ body: (inout KeyedEncodingContainer<JSONKey>) throws -> Void) throws {
        var nested = nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey(key))
        try body(&nested)
    }
}
