import Foundation

/// A file read front to back with read(2).
public final class FileByteStream: ByteStream {
    private let fd: Int32
    public let path: String
    public private(set) var consumed: Int64 = 0

    public init(path: String) throws(HealthImportError) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
    }

    deinit { close(fd) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthImportError) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 {
                consumed += Int64(n)
                return n
            }
            if errno != EINTR { throw .readFailed(path: path, reason: String(cString: strerror(errno))) }
        }
    }
}
