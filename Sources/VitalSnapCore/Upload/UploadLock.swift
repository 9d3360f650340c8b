import Foundation

/// An exclusive lock on the data directory's uploads (flock on `upload.lock`), so two processes never send the
/// same queue at once. The kernel releases it when the process dies, even by SIGKILL.
public final class UploadLock {
    private let fd: Int32

    /// Nil when another process holds it.
    public init?(directory: DataDirectory) throws(StorageError) {
        try directory.create()
        let fd = open(directory.uploadLock, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cannotWrite(path: directory.uploadLock, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
