#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The errno a V4L2 call failed with. The only error the `V4L2Driver` boundary reports; `V4L2Camera` turns it
/// into a `CaptureError` according to which call failed (`V4L2ErrorMapping`).
public struct V4L2Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The calling thread's current errno (read it straight after the failed call).
    public static var current: V4L2Errno { V4L2Errno(errno) }

    public static let noEntry = V4L2Errno(ENOENT)
    public static let invalidArgument = V4L2Errno(EINVAL)
    public static let busy = V4L2Errno(EBUSY)

    /// "Device or resource busy (EBUSY)".
    public var description: String {
        let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return Self.names[code].map { "\(text) (\($0))" } ?? text
    }

    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EAGAIN: "EAGAIN",
        ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR",
        EISDIR: "EISDIR", EINVAL: "EINVAL", ENOTTY: "ENOTTY", ENOSPC: "ENOSPC", EPIPE: "EPIPE", ETIMEDOUT: "ETIMEDOUT",
    ]
}
