/// Why a pairing or a read failed: the SDK's Bluetooth error codes (`VLDBluetoothErrorCode`, in its order), and
/// the few cases VitalSnap adds. Each has its own exit status in the CLI.
public enum BLEError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device stopped answering or answered something unreadable, or went away in the middle.
    case communicationFailure(String)
    /// Connecting failed (the device refused or BlueZ gave up).
    case connectionFailure(String)
    case pairingFailure(String)
    /// No adapter, or it is off.
    case bluetoothTurnedOff(String)
    /// The device was read but had nothing new.
    case noReading(String)
    /// No session: Bluetooth readings are uploaded for a user, so one must be signed in.
    case noUser
    /// The device was not found, or did not connect, within the catalog's connection timeout.
    case connectionTimeout(String)
    /// Connected, but no reading came within the catalog's reading timeout.
    case readingTimeout(String)
    /// VitalSnap cannot read this peripheral (a vendor protocol that is not public, or a licensed kit).
    case unsupported(String)
    /// Another pairing or read is in progress.
    case busy
    case cancelled

    /// The SDK's error code (0-7), for the cases it has.
    public var sdkCode: Int? {
        switch self {
        case .communicationFailure: 0
        case .connectionFailure: 1
        case .pairingFailure: 2
        case .bluetoothTurnedOff: 3
        case .noReading: 4
        case .noUser: 5
        case .connectionTimeout: 6
        case .readingTimeout: 7
        case .unsupported, .busy, .cancelled: nil
        }
    }

    /// First exit status of the Bluetooth errors; the SDK's codes follow it in order.
    public static let firstExitStatus: Int32 = 20

    /// The CLI's exit status: 20 + the SDK's code, 28 unsupported, 29 busy, 130 cancelled (as Ctrl-C).
    public var exitStatus: Int32 {
        if let sdkCode { return Self.firstExitStatus + Int32(sdkCode) }
        switch self {
        case .unsupported: return 28
        case .busy: return 29
        default: return 130
        }
    }

    /// The SDK's name for the error, for JSON and events.
    public var name: String {
        switch self {
        case .communicationFailure: "communication_failure"
        case .connectionFailure: "connection_failure"
        case .pairingFailure: "pairing_failure"
        case .bluetoothTurnedOff: "bluetooth_turned_off"
        case .noReading: "no_reading"
        case .noUser: "no_user"
        case .connectionTimeout: "connection_timeout"
        case .readingTimeout: "reading_timeout"
        case .unsupported: "unsupported"
        case .busy: "busy"
        case .cancelled: "cancelled"
        }
    }

    public var description: String {
        switch self {
        case .communicationFailure(let why): "communication with the device failed: \(why)"
        case .connectionFailure(let why): "could not connect: \(why)"
        case .pairingFailure(let why): "pairing failed: \(why)"
        case .bluetoothTurnedOff(let why): "Bluetooth is off: \(why)"
        case .noReading(let why): "no reading: \(why)"
        case .noUser: "no session: Bluetooth readings are uploaded for a user, so start one first (vitalsnap session start)"
        case .connectionTimeout(let why): "connection timed out: \(why)"
        case .readingTimeout(let why): "reading timed out: \(why)"
        case .unsupported(let why): "cannot read this device: \(why)"
        case .busy: "another Bluetooth pairing or read is in progress"
        case .cancelled: "cancelled"
        }
    }
}
