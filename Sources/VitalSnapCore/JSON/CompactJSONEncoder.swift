import Foundation

/// A JSON encoder for records: sorted keys, slashes unescaped, numbers in their shortest form, as
/// `RecordJSON.makeEncoder()` writes them, at several times the speed of Foundation's `JSONEncoder` (which
/// builds a boxed tree of every value, then a dictionary per object). An import queues hundreds of thousands of
/// records, and their encoding was half of its time.
///
/// It writes what records and the values they hold use: keyed containers (objects), unkeyed ones (arrays),
/// strings, numbers, booleans and nulls. Its output is checked byte for byte against Foundation's in the tests.
public struct CompactJSONEncoder {
    public init() {}

    public func encode(_ value: some Encodable) throws -> Data {
        let root = CompactJSONNode.Box()
        try value.encode(to: CompactJSONNode.Writer(box: root, codingPath: []))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        root.node.write(into: &bytes)
        return Data(bytes)
    }
}

/// The encoder's tree: small, and objects sorted only when written.
enum CompactJSONNode {
    case null
    case bool(Bool)
    /// Already written out (numbers), to be copied.
    case literal(String)
    case string(String)
    case object(ObjectBox)
    case array(ArrayBox)

    final class Box {
        var node = CompactJSONNode.null
    }

    final class ObjectBox {
        var members: [(key: String, value: Box)] = []

        func box(for key: String) -> Box {
            if let existing = members.first(where: { $0.key == key }) { return existing.value }
            let box = Box()
            members.append((key, box))
            return box
        }
    }

    final class ArrayBox {
        var items: [Box] = []
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .literal(let text): out.append(contentsOf: text.utf8)
        case .string(let text): Self.write(string: text, into: &out)
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(string: member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.node.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, item) in array.items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.node.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Quotes and escapes as JSON requires (quote, backslash, control characters); `/` and non-ASCII stay as
    /// they are, as `.withoutEscapingSlashes` writes them.
    static func write(string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case ..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A Double as Foundation writes it: integral values without a fraction, others in Swift's shortest form.
    static func number(_ value: Double) throws -> CompactJSONNode {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .literal(text)
    }

    struct Writer: Encoder {
        let box: Box
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let object: ObjectBox
            if case .object(let existing) = box.node {
                object = existing
            } else {
                object = ObjectBox()
                box.node = .object(object)
            }
            return KeyedEncodingContainer(Keyed<Key>(object: object, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let array = ArrayBox()
            box.node = .array(array)
            return Unkeyed(array: array, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(box: box, codingPath: codingPath)
        }
    }

    /// Encodes any value into `box`: the primitives directly, the rest through their `encode(to:)`.
    static func encode<T: Encodable>(_ value: T, into box: Box, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: box.node = .string(text)
        case let double as Double: box.node = try number(double)
        case let number as Int: box.node = .literal(String(number))
        case let number as Int64: box.node = .literal(String(number))
        case let flag as Bool: box.node = .bool(flag)
        default: try value.encode(to: Writer(box: box, codingPath: codingPath))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: ObjectBox
        var codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { object.box(for: key.stringValue).node = .null }
        mutating func encode(_ value: Bool, forKey key: Key) throws { object.box(for: key.stringValue).node = .bool(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { object.box(for: key.stringValue).node = .string(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { object.box(for: key.stringValue).node = try number(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { object.box(for: key.stringValue).node = .literal(String(value)) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try CompactJSONNode.encode(value, into: object.box(for: key.stringValue), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            Writer(box: object.box(for: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Writer(box: object.box(for: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { Writer(box: object.box(for: "super"), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            Writer(box: object.box(for: key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let array: ArrayBox
        var codingPath: [any CodingKey]
        var count: Int { array.items.count }

        private func next() -> Box {
            let box = Box()
            array.items.append(box)
            return box
        }

        mutating func encodeNil() throws { next().node = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { try CompactJSONNode.encode(value, into: next(), codingPath: codingPath) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            Writer(box: next(), codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            Writer(box: next(), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { Writer(box: next(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { box.node = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { try CompactJSONNode.encode(value, into: box, codingPath: codingPath) }
    }
}
