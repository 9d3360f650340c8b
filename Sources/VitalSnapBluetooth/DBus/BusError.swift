/// What can go wrong talking over D-Bus, with the other side's error name when it answered with one.
public enum BusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bus could not be reached (no daemon, no permission, a bad address).
    case cannotConnect(address: String, reason: String)
    /// The other side answered with an error, e.g. `org.bluez.Error.NotReady`.
    case remote(BusRemoteError)
    /// No answer to `what` in time.
    case timeout(what: String)
    /// The bus connection closed.
    case disconnected
    case outOfMemory
    case invalidArgument(String)
    /// A type this layer does not read (Unix file descriptors).
    case unsupportedType(String)

    public var description: String {
        switch self {
        case .cannotConnect(let address, let reason): "cannot connect to the D-Bus bus at \(address): \(reason)"
        case .remote(let error): error.description
        case .timeout(let what): "no answer to \(what) in time"
        case .disconnected: "the D-Bus connection closed"
        case .outOfMemory: "out of memory building a D-Bus message"
        case .invalidArgument(let why): why
        case .unsupportedType(let type): "a D-Bus value of type '\(type)' cannot be read"
        }
    }

    /// The remote error's name, when the other side answered with one.
    public var remoteName: String? {
        if case .remote(let error) = self { return error.name }
        return nil
    }
}

/// An error reply: its D-Bus name and its message.
public struct BusRemoteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    public var description: String { text.isEmpty ? name : "\(name): \(text)" }
}
