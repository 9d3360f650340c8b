import CDBus

/// A D-Bus message: a method call, its reply or error, or a signal. Owns one reference to libdbus's message,
/// and turns its arguments into `BusValue`s and back; the iterator calls of libdbus stay in this file.
public final class BusMessage: @unchecked Sendable {
    public enum Kind: Sendable { case methodCall, methodReturn, error, signal, other }

    let raw: OpaquePointer

    /// Takes over one reference (a message libdbus returned to us).
    init(adopting raw: OpaquePointer) {
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    /// A method call to `destination`, with `arguments` appended.
    public static func methodCall(
        destination: String, path: String, interface: String, member: String, arguments: [BusValue] = []
    ) throws(BusError) -> BusMessage {
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else {
            throw .invalidArgument("cannot make a call of \(interface).\(member) on \(path)")
        }
        let message = BusMessage(adopting: raw)
        try message.append(arguments)
        return message
    }

    /// The reply to this method call, with `values` appended.
    public func makeReply(_ values: [BusValue] = []) throws(BusError) -> BusMessage {
        guard let reply = dbus_message_new_method_return(raw) else { throw .outOfMemory }
        let message = BusMessage(adopting: reply)
        try message.append(values)
        return message
    }

    /// An error reply to this method call.
    public func makeErrorReply(name: String, text: String) throws(BusError) -> BusMessage {
        guard let reply = dbus_message_new_error(raw, name, text) else { throw .outOfMemory }
        return BusMessage(adopting: reply)
    }

    // MARK: - Header

    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case Self.typeMethodCall: .methodCall
        case Self.typeMethodReturn: .methodReturn
        case Self.typeError: .error
        case Self.typeSignal: .signal
        default: .other
        }
    }

    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    // The message type codes of dbus-protocol.h (macros Swift does not import).
    static let typeMethodCall: Int32 = 1
    static let typeMethodReturn: Int32 = 2
    static let typeError: Int32 = 3
    static let typeSignal: Int32 = 4

    // MARK: - Arguments

    /// The message's arguments, in order. A type this layer does not read (a Unix fd) is an error.
    public func arguments() throws(BusError) -> [BusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0 else { return [] }
        var values: [BusValue] = []
        repeat {
            values.append(try Self.read(&iterator))
        } while dbus_message_iter_next(&iterator) != 0
        return values
    }

    /// The first argument's text, for errors (whose first argument is the message).
    var firstText: String? { (try? arguments())?.first?.string }

    func append(_ values: [BusValue]) throws(BusError) {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iterator)
        for value in values { try Self.write(value, into: &iterator) }
    }

    private static func code(_ character: Character) -> Int32 { Int32(character.asciiValue ?? 0) }

    private static func read(_ iterator: inout DBusMessageIter) throws(BusError) -> BusValue {
        let type = dbus_message_iter_get_arg_type(&iterator)
        var basic = DBusBasicValue()
        func basicValue() -> DBusBasicValue {
            dbus_message_iter_get_basic(&iterator, &basic)
            return basic
        }
        switch type {
        case code("y"): return .byte(basicValue().byt)
        case code("b"): return .boolean(basicValue().bool_val != 0)
        case code("n"): return .int16(basicValue().i16)
        case code("q"): return .uint16(basicValue().u16)
        case code("i"): return .int32(basicValue().i32)
        case code("u"): return .uint32(basicValue().u32)
        case code("x"): return .int64(Int64(basicValue().i64))
        case code("t"): return .uint64(UInt64(basicValue().u64))
        case code("d"): return .double(basicValue().dbl)
        case code("s"): return .string(basicValue().str.map { String(cString: $0) } ?? "")
        case code("o"): return .objectPath(basicValue().str.map { String(cString: $0) } ?? "")
        case code("g"): return .signature(basicValue().str.map { String(cString: $0) } ?? "")
        case code("a"):
            let full = signature(of: &iterator)
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            var items: [BusValue] = []
            while dbus_message_iter_get_arg_type(&inner) != 0 {
                items.append(try read(&inner))
                dbus_message_iter_next(&inner)
            }
            return .array(elementSignature: String(full.dropFirst()), items)
        case code("e"):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            let key = try read(&inner)
            dbus_message_iter_next(&inner)
            return .dictEntry(key, try read(&inner))
        case code("r"):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            var fields: [BusValue] = []
            while dbus_message_iter_get_arg_type(&inner) != 0 {
                fields.append(try read(&inner))
                dbus_message_iter_next(&inner)
            }
            return .structure(fields)
        case code("v"):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .variant(try read(&inner))
        default:
            throw .unsupportedType(String(UnicodeScalar(UInt8(truncatingIfNeeded: type))))
        }
    }

    private static func signature(of iterator: inout DBusMessageIter) -> String {
        guard let text = dbus_message_iter_get_signature(&iterator) else { return "" }
        defer { dbus_free(text) }
        return String(cString: text)
    }

    private static func write(_ value: BusValue, into iterator: inout DBusMessageIter) throws(BusError) {
        var ok: dbus_bool_t = 1
        func basic<T: BitwiseCopyable>(_ type: Character, _ value: T) {
            var copy = value
            ok = dbus_message_iter_append_basic(&iterator, code(type), &copy)
        }
        func text(_ type: Character, _ value: String) {
            value.withCString { pointer in
                var pointer: UnsafePointer<CChar>? = pointer
                ok = dbus_message_iter_append_basic(&iterator, code(type), &pointer)
            }
        }
        switch value {
        case .byte(let v): basic("y", v)
        case .boolean(let v): basic("b", dbus_bool_t(v ? 1 : 0))
        case .int16(let v): basic("n", v)
        case .uint16(let v): basic("q", v)
        case .int32(let v): basic("i", v)
        case .uint32(let v): basic("u", v)
        case .int64(let v): basic("x", v)
        case .uint64(let v): basic("t", v)
        case .double(let v): basic("d", v)
        case .string(let v): text("s", v)
        case .objectPath(let v):
            guard dbus_validate_path(v, nil) != 0 else { throw .invalidArgument("\(v) is not an object path") }
            text("o", v)
        case .signature(let v): text("g", v)
        case .array(let element, let items):
            try container("a", contained: element, into: &iterator) { (inner) throws(BusError) in
                for item in items {
                    guard item.signature == element else {
                        throw .invalidArgument("an element \(item.signature) in an array of \(element)")
                    }
                    try write(item, into: &inner)
                }
            }
        case .dictEntry(let key, let entry):
            try container("e", contained: nil, into: &iterator) { (inner) throws(BusError) in
                try write(key, into: &inner)
                try write(entry, into: &inner)
            }
        case .structure(let fields):
            try container("r", contained: nil, into: &iterator) { (inner) throws(BusError) in
                for field in fields { try write(field, into: &inner) }
            }
        case .variant(let inner):
            try container("v", contained: inner.signature, into: &iterator) { (sub) throws(BusError) in
                try write(inner, into: &sub)
            }
        }
        if ok == 0 { throw .outOfMemory }
    }

    private static func container(
        _ type: Character, contained: String?, into iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws(BusError) -> Void
    ) throws(BusError) {
        var inner = DBusMessageIter()
        let opened: dbus_bool_t =
            if let contained {
                contained.withCString { dbus_message_iter_open_container(&iterator, code(type), $0, &inner) }
            } else {
                dbus_message_iter_open_container(&iterator, code(type), nil, &inner)
            }
        guard opened != 0 else { throw .outOfMemory }
        do {
            try body(&inner)
        } catch {
            dbus_message_iter_abandon_container(&iterator, &inner)
            throw error
        }
        guard dbus_message_iter_close_container(&iterator, &inner) != 0 else { throw .outOfMemory }
    }
}
