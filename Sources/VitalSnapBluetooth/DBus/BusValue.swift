/// One value of the D-Bus type system, as a Swift value: what the BlueZ layer sends and receives.
///
/// Containers carry their element signature, so an empty array still has a type on the wire. Dictionaries are
/// arrays of `dictEntry` values (`a{sv}` is `.array(elementSignature: "{sv}", [.dictEntry(...), ...])`).
public indirect enum BusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case array(elementSignature: String, [BusValue])
    case dictEntry(BusValue, BusValue)
    case structure([BusValue])
    case variant(BusValue)

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    // MARK: - Building

    /// `ay`.
    public static func bytes(_ bytes: [UInt8]) -> BusValue {
        .array(elementSignature: "y", bytes.map { .byte($0) })
    }

    /// `as`.
    public static func strings(_ strings: [String]) -> BusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }

    /// `a{sv}`, the options and properties dictionary of BlueZ, in key order (so a message is reproducible).
    public static func options(_ entries: [String: BusValue]) -> BusValue {
        .array(
            elementSignature: "{sv}",
            entries.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .variant($0.value)) })
    }

    // MARK: - Reading

    /// The value inside any number of variants.
    public var unwrapped: BusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    public var bool: Bool? {
        if case .boolean(let flag) = unwrapped { return flag }
        return nil
    }

    /// Any integer type, as an Int.
    public var integer: Int? {
        switch unwrapped {
        case .byte(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        default: nil
        }
    }

    /// An `ay` as bytes.
    public var byteArray: [UInt8]? {
        guard case .array(let element, let items) = unwrapped, element == "y" else { return nil }
        return items.compactMap { if case .byte(let b) = $0 { b } else { nil } }
    }

    /// An array of strings or object paths.
    public var stringArray: [String]? {
        guard case .array(_, let items) = unwrapped else { return nil }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : nil
    }

    /// A dictionary keyed by strings or object paths (`a{sv}`, `a{oa{sa{sv}}}`); values as they are.
    public var dictionary: [String: BusValue]? {
        guard case .array(let element, let items) = unwrapped, element.hasPrefix("{") else { return nil }
        var result: [String: BusValue] = [:]
        for case .dictEntry(let key, let value) in items {
            guard let name = key.string else { return nil }
            result[name] = value
        }
        return result
    }
}
