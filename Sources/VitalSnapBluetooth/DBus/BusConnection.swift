import CDBus
import Foundation

/// A private connection to a D-Bus bus, used by one task at a time (a lock makes concurrent use safe but serial).
///
/// It runs no event loop of its own: a method call is sent and the connection is read until its reply comes
/// (`call`), and signals are taken from it when the caller asks (`nextSignal`). Signals that arrive while a call
/// waits are kept, in order, for the next `nextSignal`; method calls to objects this side exports (BlueZ asking
/// the pairing agent for a passkey while `Pair` waits) are answered as they arrive, so a call that makes the
/// other side call back cannot deadlock.
public final class BusConnection: @unchecked Sendable {
    /// Answers a method call to an exported object: the reply's values, or an error reply.
    public typealias Handler = @Sendable (BusMessage) -> Result<[BusValue], BusRemoteError>

    private let raw: OpaquePointer
    private let lock = NSLock()
    private var signals: [BusMessage] = []
    private var exported: [String: Handler] = [:]
    private var closed = false
    /// The bus's name for this connection (`:1.42`).
    public let uniqueName: String
    /// Where it is connected, for messages.
    public let address: String

    /// Connects to the bus at `address` (`unix:path=...`), as the tests' private bus is reached.
    public convenience init(address: String) throws(BusError) {
        try self.init(address: address) { error in dbus_connection_open_private(address, &error) }
    }

    /// Connects to the system bus, where BlueZ lives.
    public static func system() throws(BusError) -> BusConnection {
        try BusConnection(address: "the system bus") { error in dbus_bus_get_private(DBUS_BUS_SYSTEM, &error) }
    }

    private init(address: String, open: (inout CDBus.DBusError) -> OpaquePointer?) throws(BusError) {
        // libdbus needs its locks set up before a connection is used from more than one thread.
        dbus_threads_init_default()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = open(&error) else {
            throw .cannotConnect(address: address, reason: Self.text(of: error) ?? "unknown reason")
        }
        // A bus connection's default is to _exit() the process when the bus goes away; a library must not.
        dbus_connection_set_exit_on_disconnect(connection, 0)
        if dbus_bus_get_unique_name(connection) == nil, dbus_bus_register(connection, &error) == 0 {
            let reason = Self.text(of: error) ?? "Hello refused"
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw .cannotConnect(address: address, reason: reason)
        }
        raw = connection
        self.address = address
        uniqueName = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
    }

    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    private static func text(of error: CDBus.DBusError) -> String? {
        var error = error
        guard dbus_error_is_set(&error) != 0 else { return nil }
        return error.message.map { String(cString: $0) }
    }

    // MARK: - Calls

    /// Calls a method and waits at most `timeout` seconds for its reply's values.
    public func call(
        destination: String, path: String, interface: String, member: String, arguments: [BusValue] = [],
        timeout: Double
    ) throws(BusError) -> [BusValue] {
        let message = try BusMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member, arguments: arguments)
        return try call(message, timeout: timeout)
    }

    public func call(_ message: BusMessage, timeout: Double) throws(BusError) -> [BusValue] {
        lock.lock()
        defer { lock.unlock() }
        var serial: dbus_uint32_t = 0
        guard dbus_connection_send(raw, message.raw, &serial) != 0 else { throw .outOfMemory }
        let what = "\(message.interface ?? "").\(message.member ?? "") on \(message.path ?? "")"
        let deadline = ContinuousClock.now + .milliseconds(Int(max(0, timeout) * 1000))
        guard let reply = try receive(until: deadline, replyTo: serial) else { throw .timeout(what: what) }
        if reply.kind == .error {
            throw .remote(BusRemoteError(name: reply.errorName ?? "", text: reply.firstText ?? ""))
        }
        return try reply.arguments()
    }

    /// Asks the bus to deliver the signals `rule` matches (`type='signal',sender='org.bluez'`).
    public func addMatch(_ rule: String) throws(BusError) {
        _ = try call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "AddMatch", arguments: [.string(rule)], timeout: Self.busCallTimeout)
    }

    /// The bus daemon answers its own calls at once; this only guards against a wedged daemon.
    static let busCallTimeout = 5.0

    // MARK: - Signals and exported objects

    /// Answers method calls to `path` with `handler` (replacing any earlier one).
    public func export(path: String, handler: @escaping Handler) {
        lock.lock()
        exported[path] = handler
        lock.unlock()
    }

    public func unexport(path: String) {
        lock.lock()
        exported[path] = nil
        lock.unlock()
    }

    /// The next signal, waiting at most `timeout` seconds; nil when none came.
    public func nextSignal(timeout: Double) throws(BusError) -> BusMessage? {
        lock.lock()
        defer { lock.unlock() }
        if signals.isEmpty {
            _ = try receive(until: ContinuousClock.now + .milliseconds(Int(max(0, timeout) * 1000)), replyTo: nil)
        }
        return signals.isEmpty ? nil : signals.removeFirst()
    }

    /// Reads the connection until the reply to `serial` comes (with no serial: until a signal comes) or `deadline`
    /// passes; keeps signals, answers calls to exported objects. Called with the lock held.
    private func receive(until deadline: ContinuousClock.Instant, replyTo serial: dbus_uint32_t?) throws(BusError) -> BusMessage? {
        while true {
            if let reply = try drain(replyTo: serial) { return reply }
            if serial == nil, !signals.isEmpty { return nil }
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(clamping: Int((left / .milliseconds(1)).rounded(.up)))
            // At the deadline, one last read that does not wait, so a reply already in the socket is not missed.
            guard dbus_connection_read_write(raw, max(0, milliseconds)) != 0 else {
                closed = true
                throw .disconnected
            }
            if milliseconds <= 0 { return try drain(replyTo: serial) }
        }
    }

    /// Handles every message already read: returns the reply to `serial` if among them.
    private func drain(replyTo serial: dbus_uint32_t?) throws(BusError) -> BusMessage? {
        while let popped = dbus_connection_pop_message(raw) {
            let message = BusMessage(adopting: popped)
            switch message.kind {
            case .methodReturn, .error:
                if let serial, message.replySerial == serial { return message }
            case .signal:
                if message.path == Self.localPath, message.member == "Disconnected" {
                    closed = true
                    throw .disconnected
                }
                signals.append(message)
            case .methodCall:
                try answer(message)
            case .other:
                break
            }
        }
        if closed { throw .disconnected }
        return nil
    }

    private static let localPath = "/org/freedesktop/DBus/Local"

    private func answer(_ call: BusMessage) throws(BusError) {
        // A call that expects no reply gets none.
        let wantsReply = dbus_message_get_no_reply(call.raw) == 0
        let result: Result<[BusValue], BusRemoteError>
        if let handler = call.path.flatMap({ exported[$0] }) {
            result = handler(call)
        } else if call.interface == "org.freedesktop.DBus.Peer", call.member == "Ping" {
            result = .success([])
        } else {
            result = .failure(
                BusRemoteError(name: "org.freedesktop.DBus.Error.UnknownObject", text: "no object at \(call.path ?? "")"))
        }
        guard wantsReply else { return }
        let reply: BusMessage
        switch result {
        case .success(let values): reply = try call.makeReply(values)
        case .failure(let error): reply = try call.makeErrorReply(name: error.name, text: error.text)
        }
        guard dbus_connection_send(raw, reply.raw, nil) != 0 else { throw .outOfMemory }
        dbus_connection_flush(raw)
    }
}
