/// What changed on the BlueZ side, in the order BlueZ said it.
public enum BlueZEvent: Equatable, Sendable {
    /// A device object appeared (discovered, or known and seen again).
    case deviceAdded(path: String)
    case deviceRemoved(path: String)
    /// A device's properties changed; `advertised` when RSSI or advertising data came with it, the sign that it is
    /// advertising right now.
    case deviceChanged(path: String, keys: Set<String>, advertised: Bool)
    /// A notification or indication: the characteristic's new value.
    case value(characteristic: String, bytes: [UInt8])
    /// The adapter's properties changed (`Powered`).
    case adapterChanged(path: String, keys: Set<String>)
}
