#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file read and atomic write with POSIX calls, so every failure maps to a precise
/// `ImageCodecError` (errno tells "missing" from "permission denied", fstat tells "directory").
enum FileIO {
    static func readAll(_ path: String) throws(ImageCodecError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer before fstat can refuse it.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { throw readError(errno, path) }
        defer { close(fd) }

        var info = stat()
        if fstat(fd, &info) != 0 { throw readError(errno, path) }
        let type = info.st_mode & S_IFMT
        // open(O_RDONLY) succeeds on a directory on Linux; catch it here rather than as EISDIR from read.
        if type == S_IFDIR { throw .isDirectory(path: path) }
        // FIFOs and devices could block or never end.
        if type != S_IFREG { throw .notARegularFile(path: path) }
        let size = Int(info.st_size)
        if size == 0 { throw .emptyFile(path: path) }

        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }  // the file shrank since fstat
                done += n
            }
            count = done
        }
        if failure != 0 { throw readError(failure, path) }
        if bytes.isEmpty { throw .emptyFile(path: path) }
        return bytes
    }

    /// Writes to a temporary file in the destination folder, then renames it over `path`, so readers
    /// never see a half-written image and a failed write leaves the old file intact.
    static func writeAtomically(_ data: [UInt8], to path: String) throws(ImageCodecError) {
        guard !path.isEmpty else { throw .writeFailed(path: path, reason: "empty path") }
        // Renaming over a device or a folder would replace it (as root, /dev/null would become a file).
        var existing = stat()
        if stat(path, &existing) == 0, existing.st_mode & S_IFMT != S_IFREG {
            throw .notARegularFile(path: path)
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temp = "\(folder).\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 { throw .writeFailed(path: path, reason: errnoText(errno)) }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += n
            }
        }
        // fsync before rename: otherwise a crash can leave an empty file under the final name.
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temp, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temp)
            throw .writeFailed(path: path, reason: errnoText(failure))
        }
    }

    private static func readError(_ code: Int32, _ path: String) -> ImageCodecError {
        switch code {
        case ENOENT, ENOTDIR: return .fileNotFound(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case EISDIR: return .isDirectory(path: path)
        default: return .readFailed(path: path, reason: errnoText(code))
        }
    }

    static func errnoText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
