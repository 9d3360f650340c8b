/// A layer's JSON object, read field by field with errors that name the layer and the field.
struct LayerFields {
    let layer: String
    let fields: [String: Any]

    func rejectUnknown(allowed: Set<String>) throws {
        for key in fields.keys.sorted() where !allowed.contains(key) {
            throw NetworkGraphError.unknownAttribute(layer: layer, key: key)
        }
    }

    func integer(_ key: String, minimum: Int) throws -> Int {
        guard let value = fields[key] else { throw NetworkGraphError.badAttribute(layer: layer, reason: "'\(key)' is missing") }
        guard let n = JSONValue.integer(value), n >= minimum else {
            throw NetworkGraphError.badAttribute(layer: layer, reason: "'\(key)' must be an integer of at least \(minimum), not \(value)")
        }
        return n
    }

    func optionalInteger(_ key: String, minimum: Int, default value: Int) throws -> Int {
        fields[key] == nil ? value : try integer(key, minimum: minimum)
    }

    /// `[y, x]` or one integer for both.
    func pair(_ key: String, minimum: Int) throws -> Pair2D {
        guard let value = fields[key] else { throw NetworkGraphError.badAttribute(layer: layer, reason: "'\(key)' is missing") }
        if let n = JSONValue.integer(value), n >= minimum { return Pair2D(n) }
        if let array = value as? [Any], array.count == 2, let y = JSONValue.integer(array[0]), let x = JSONValue.integer(array[1]),
           y >= minimum, x >= minimum {
            return Pair2D(y: y, x: x)
        }
        throw NetworkGraphError.badAttribute(
            layer: layer, reason: "'\(key)' must be an integer or a pair [y, x] of integers of at least \(minimum), not \(value)")
    }

    func optionalPair(_ key: String, minimum: Int, default value: Pair2D) throws -> Pair2D {
        fields[key] == nil ? value : try pair(key, minimum: minimum)
    }

    /// `activation`: "none" (the default) or "relu".
    func relu() throws -> Bool {
        guard let value = fields["activation"] else { return false }
        switch value as? String {
        case "none": return false
        case "relu": return true
        default: throw NetworkGraphError.badAttribute(layer: layer, reason: "'activation' must be \"none\" or \"relu\", not \(value)")
        }
    }
}
