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
    /// What a super encoder writes into its box, read when written out.
    case boxed(Box)

    final class Box {
        var node = CompactJSONNode.null
    }

    /// An object's members in the order they were encoded (a key encoded again replaces its value).
    final class ObjectBox {
        var members: [(key: String, node: CompactJSONNode)] = []

        func set(_ key: String, _ node: CompactJSONNode) {
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].node = node
            } else {
                members.append((key, node))
            }
        }

        /// The object under `key` for a nested container: the one there, or a new one.
        func object(for key: String) -> ObjectBox {
            if let member = members.first(where: { $0.key == key }), case .object(let existing) = member.node { return existing }
            let object = ObjectBox()
            set(key, .object(object))
            return object
        }

        func array(for key: String) -> ArrayBox {
            let array = ArrayBox()
            set(key, .array(array))
            return array
        }
    }

    final class ArrayBox {
        var items: [CompactJSONNode] = []
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .boxed(let box): box.node.write(into: &out)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .literal(let text): out.append(contentsOf: text.utf8)
        case .string(let text): Self.write(string: text, into: &out)
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            // Sorted in place: the tree is written once.
            object.members.sort { $0.key < $1.key }
            for (index, member) in object.members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(string: member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.node.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, item) in array.items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Quotes and escapes as JSON requires (quote, backslash, control characters); `/` and non-ASCII stay as
    /// they are, as `.withoutEscapingSlashes` writes them.
    static func write(string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole.
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
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

    /// Any value as a node: the primitives directly, the rest through their `encode(to:)`.
    static func node<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> CompactJSONNode {
        // The type is compared, not cast: a dynamic cast per value was a good part of an import's encoding.
        if T.self == String.self { return .string(reinterpret(value)) }
        if T.self == Double.self { return try number(reinterpret(value)) }
        if T.self == Int.self { return .literal(String(reinterpret(value) as Int)) }
        if T.self == Int64.self { return .literal(String(reinterpret(value) as Int64)) }
        if T.self == Bool.self { return .bool(reinterpret(value)) }
        let box = Box()
        try value.encode(to: Writer(box: box, codingPath: codingPath))
        return box.node
    }

    /// `value` as the type it is known to be (`T.self == U.self` was checked).
    private static func reinterpret<T, U>(_ value: T) -> U {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: U.self, capacity: 1) { $0.pointee } }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: ObjectBox
        var codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .null) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .bool(value)) }
        mutating func encode(_ value: String, forKey key: Key) throws { object.set(key.stringValue, .string(value)) }
        mutating func encode(_ value: Double, forKey key: Key) throws { object.set(key.stringValue, try number(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { object.set(key.stringValue, .literal(String(value))) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            object.set(key.stringValue, try CompactJSONNode.node(value, codingPath: codingPath + [key]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            KeyedEncodingContainer(Keyed<NestedKey>(object: object.object(for: key.stringValue), codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Unkeyed(array: object.array(for: key.stringValue), codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { boxedWriter(for: "super", codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            boxedWriter(for: key.stringValue, codingPath: codingPath + [key])
        }

        private func boxedWriter(for key: String, codingPath: [any CodingKey]) -> Writer {
            let box = Box()
            object.set(key, .boxed(box))
            return Writer(box: box, codingPath: codingPath)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let array: ArrayBox
        var codingPath: [any CodingKey]
        var count: Int { array.items.count }

        mutating func encodeNil() throws { array.items.append(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws { array.items.append(try CompactJSONNode.node(value, codingPath: codingPath)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let object = ObjectBox()
            array.items.append(.object(object))
            return KeyedEncodingContainer(Keyed<NestedKey>(object: object, codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayBox()
            array.items.append(.array(nested))
            return Unkeyed(array: nested, codingPath: codingPath)
        }
        mutating func superEncoder() -> any Encoder {
            let box = Box()
            array.items.append(.boxed(box))
            return Writer(box: box, codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { box.node = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { box.node = try CompactJSONNode.node(value, codingPath: codingPath) }
    }
}
