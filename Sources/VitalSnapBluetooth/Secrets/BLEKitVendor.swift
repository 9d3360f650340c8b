/// The makers whose licensed kit reads their meters with one key for all of them, kept in a file of its own in the
/// data directory.
public enum BLEKitVendor: String, CaseIterable, Sendable, CustomStringConvertible {
    /// AgaMatrix's meters (catalog id 32).
    case agaMatrix
    /// CVS Health's meters, made by AgaMatrix (catalog id 33).
    case cvsHealth

    /// The key file's name in the data directory: `{"key": "<hex>"}`.
    public var keyFileName: String {
        switch self {
        case .agaMatrix: "agamatrix-authkey.json"
        case .cvsHealth: "cvshealth-authkey.json"
        }
    }

    /// The vendor whose kit key reads the catalog entry `peripheralID`; nil for every other entry.
    public init?(peripheralID: Int) {
        switch peripheralID {
        case 32: self = .agaMatrix
        case 33: self = .cvsHealth
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .agaMatrix: "AgaMatrix"
        case .cvsHealth: "CVS Health"
        }
    }
}
