#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the errno of a failed V4L2 call into the `CaptureError` a user can act on, by which call failed.
public enum V4L2ErrorMapping {
    /// The error for `error` from `operation` on the device at `device`.
    public static func captureError(_ error: V4L2Errno, during operation: V4L2Operation, device: String) -> CaptureError {
        switch error.code {
        case ENOENT, ENODEV, ENXIO, ENOTDIR:
            // ENODEV later on: the camera was unplugged.
            return .noSuchDevice(device)
        case EACCES, EPERM:
            return .permissionDenied(device)
        case EBUSY:
            return .deviceBusy(device)
        default:
            break
        }
        switch (operation, error.code) {
        case (.open, EISDIR):
            return .notACaptureDevice(device, reason: "it is a directory")
        case (.open, ENOTTY), (.open, EINVAL), (.queryCapabilities, ENOTTY), (.queryCapabilities, EINVAL):
            // libv4l2 queries the capabilities inside open, so a plain file or another kind of device fails there.
            return .notACaptureDevice(device, reason: "not a V4L2 device")
        case (.requestBuffers, EINVAL):
            return .notACaptureDevice(device, reason: "it does not support memory-mapped streaming")
        case (.streamOn, ENOSPC):
            return .streamFailed(
                device, reason: "not enough USB bandwidth to start streaming (\(error)); try a smaller --size, "
                    + "another USB port, or unplug other cameras")
        default:
            return .streamFailed(device, reason: "\(operation.rawValue) failed: \(error)")
        }
    }

    /// `notACaptureDevice` unless the node's capabilities (VIDIOC_QUERYCAP) include single-planar video
    /// capture and streaming I/O.
    public static func checkCapabilities(_ capabilities: V4L2Capabilities, device: String) throws(CaptureError) {
        let node = capabilities.node
        let name = capabilities.card.isEmpty ? capabilities.driver : capabilities.card
        guard node.contains(.videoCapture) else {
            let reason: String
            if node.contains(.metadataCapture) {
                reason = "\(name): a metadata node, not the picture; UVC cameras open two nodes, try the other one"
            } else if node.contains(.videoCaptureMultiplanar) {
                reason = "\(name): multi-planar capture only, which VitalSnap does not read"
            } else if node.contains(.videoOutput) {
                reason = "\(name): a video output device"
            } else {
                reason = "\(name): no video capture capability"
            }
            throw .notACaptureDevice(device, reason: reason)
        }
        guard node.contains(.streaming) else {
            throw .notACaptureDevice(device, reason: "\(name): no streaming I/O (read() only)")
        }
    }
}
