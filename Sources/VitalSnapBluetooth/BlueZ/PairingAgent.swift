/// The pairing agent BlueZ asks for a PIN or passkey when a device wants one (`org.bluez.Agent1`): Nipro's
/// meters ask for digits of the serial number, Accu-Chek's for the PIN on the back.
///
/// The secret comes from `secret` (the command line's --pin, or a prompt); nil refuses, and BlueZ then
/// reports the pairing as cancelled. Confirmations of a displayed passkey are accepted: the person started the
/// pairing of this device.
public struct PairingAgent: Sendable {
    public enum Request: Sendable, Equatable {
        /// Digits or text (`RequestPinCode`).
        case pinCode
        /// A number from 0 to 999999 (`RequestPasskey`).
        case passkey
    }

    /// Gives the secret for a device (its object path) and a kind of request, or nil to refuse.
    public typealias Secret = @Sendable (_ device: String, _ request: Request) -> String?

    /// BlueZ's capability for an agent that can both show and type a passkey.
    static let capability = "KeyboardDisplay"
    /// The largest passkey BlueZ accepts (six digits).
    static let largestPasskey: UInt32 = 999_999

    public let path: String
    let secret: Secret

    public init(path: String = "/org/vitalsnap/agent", secret: @escaping Secret) {
        self.path = path
        self.secret = secret
    }

    static let rejected = BusRemoteError(name: "org.bluez.Error.Rejected", text: "no PIN or passkey given")

    var handler: BusConnection.Handler {
        let secret = self.secret
        return { call in
            let arguments = (try? call.arguments()) ?? []
            let device = arguments.first?.string ?? ""
            switch call.member {
            case "RequestPinCode":
                guard let text = secret(device, .pinCode), !text.isEmpty else { return .failure(Self.rejected) }
                return .success([.string(text)])
            case "RequestPasskey":
                guard let text = secret(device, .passkey), let number = UInt32(text), number <= Self.largestPasskey else {
                    return .failure(Self.rejected)
                }
                return .success([.uint32(number)])
            case "DisplayPasskey", "DisplayPinCode", "RequestConfirmation", "RequestAuthorization", "AuthorizeService",
                "Cancel", "Release":
                return .success([])
            default:
                return .failure(BusRemoteError(name: "org.freedesktop.DBus.Error.UnknownMethod", text: call.member ?? ""))
            }
        }
    }
}
