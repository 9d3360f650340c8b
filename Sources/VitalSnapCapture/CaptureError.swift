/// Why frames cannot be had, with what to do about it. Each case maps to its own exit status in the CLI.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchDevice(String)
    /// The counterpart of a phone's "camera authorization denied".
    case permissionDenied(String)
    case deviceBusy(String)
    case notACaptureDevice(String, reason: String)
    case noUsableFormat(String, offered: [String])
    case streamFailed(String, reason: String)
    /// A replayed file or folder that holds no frames, or a frame that cannot be decoded.
    case unreadableInput(String, reason: String)

    public var description: String {
        switch self {
        case .noSuchDevice(let path): "no camera at \(path) (is it plugged in? `ls /dev/video*` lists the cameras)"
        case .permissionDenied(let path):
            "permission denied for \(path): add your user to the `video` group (`sudo usermod -aG video $USER`, then log in again)"
        case .deviceBusy(let path): "\(path) is busy: another program is using the camera"
        case .notACaptureDevice(let path, let reason): "\(path) is not a video capture device (\(reason))"
        case .noUsableFormat(let path, let offered):
            "\(path) offers no format VitalSnap can read (offered: \(offered.isEmpty ? "none" : offered.joined(separator: ", ")); GREY, YUYV or MJPEG needed)"
        case .streamFailed(let path, let reason): "\(path): streaming failed: \(reason)"
        case .unreadableInput(let path, let reason): "\(path): \(reason)"
        }
    }
}
