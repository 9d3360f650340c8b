import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes that survive a crash: a temporary file in the same folder, fsync, rename over the target,
/// fsync of the folder. A reader sees the old file or the new one, never half of one. Public for the other
/// modules' small private files in the data directory (Bluetooth keys, anchors, passive settings).
public enum DurableFile {
    public static func write(_ data: Data, to path: String, mode: mode_t) throws(StorageError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temp = "\(folder)/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // The mode is set at creation, so a token is never readable by others, not even for a moment.
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        if fd < 0 { throw failure(errno, path) }
        var code: Int32 = 0
        data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    code = errno
                    return
                }
                done += n
            }
        }
        if code == 0, fsync(fd) != 0 { code = errno }
        if close(fd) != 0, code == 0 { code = errno }
        if code == 0, rename(temp, path) != 0 { code = errno }
        if code != 0 {
            unlink(temp)
            throw failure(code, path)
        }
        syncFolder(folder)
    }

    /// Makes a rename or unlink in `folder` durable.
    static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// The file's bytes; nil when there is no file.
    public static func read(_ path: String) throws(StorageError) -> Data? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
        return data
    }

    private static func failure(_ code: Int32, _ path: String) -> StorageError {
        code == ENOSPC || code == EDQUOT ? .diskFull(path: path) : .cannotWrite(path: path, reason: String(cString: strerror(code)))
    }
}
