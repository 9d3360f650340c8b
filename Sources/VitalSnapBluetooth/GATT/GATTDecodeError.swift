/// Why a characteristic's value could not be decoded. Messages are for people debugging a meter.
public enum GATTDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value ends before a field its flags announce.
    case tooShort(characteristic: String, field: String, needed: Int, available: Int)
    /// A field holds a value the specification reserves or forbids.
    case invalidField(characteristic: String, field: String, detail: String)

    public var description: String {
        switch self {
        case .tooShort(let characteristic, let field, let needed, let available):
            "\(characteristic): the value ends before its \(field) (\(needed) more bytes needed, \(available) left)"
        case .invalidField(let characteristic, let field, let detail):
            "\(characteristic): invalid \(field): \(detail)"
        }
    }
}
