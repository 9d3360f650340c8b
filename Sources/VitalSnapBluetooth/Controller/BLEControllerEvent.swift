/// What a pairing or read is doing, for the person waiting (the SDK's delegate calls, plus progress).
public enum BLEControllerEvent: Equatable, Sendable {
    /// Looking for the device: now is the time to wake it or start a measurement.
    case readyToRead(peripheralID: Int)
    case found(address: String, name: String)
    case connected(address: String)
    case paired(address: String)
    /// A value arrived (running count of values so far).
    case received(count: Int)
}
