import Foundation

/// What a page asks of the view, as a JSON text message `{"command": ...}`.
public enum ViewCommand: Sendable, Hashable {
    /// Queue the steady reading as it is.
    case accept
    /// Queue the steady reading corrected to `value` (as the display shows it: `120/80/72`).
    case edit(String)
    /// Read again from the next frame.
    case retake
    /// Queue nothing and end.
    case cancel
    /// The page has drawn the frame it was sent and takes the next (frames are sent one at a time, so a slow
    /// page gets fewer frames, never a queue of them).
    case drawn

    /// The command of a message, or nil for one that is not a command (answered with a notice, ignored).
    public init?(json text: Substring) {
        guard text.utf8.count <= Self.maximumLength,
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let name = object["command"] as? String
        else { return nil }
        switch name {
        case "accept": self = .accept
        case "retake": self = .retake
        case "cancel": self = .cancel
        case "drawn": self = .drawn
        case "edit":
            guard let value = object["value"] as? String, value.count <= Self.maximumValueLength else { return nil }
            self = .edit(value)
        default: return nil
        }
    }

    /// The longest message read as a command (bytes) and the longest edited value (characters).
    public static let maximumLength = 4096
    public static let maximumValueLength = 64
}
