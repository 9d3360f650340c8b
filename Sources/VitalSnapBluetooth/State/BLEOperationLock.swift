import Foundation
import VitalSnapCore

/// One Bluetooth operation at a time across processes (an interactive `ble read` and the passive reader):
/// an advisory lock on `ble.lock` in the data directory. The interactive read waits for it; the passive reader
/// only tries, and leaves a device for later when the lock is taken, so an interactive read suspends it.
public final class BLEOperationLock: @unchecked Sendable {
    private let fd: Int32
    public let path: String

    /// Opens (creating) the lock file; holds nothing yet.
    public init(directory: DataDirectory) throws(StorageError) {
        try directory.create()
        path = directory.path + "/ble.lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { close(fd) }

    /// Takes the lock if free; false when another process holds it.
    public func tryLock() -> Bool {
        flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    /// Waits for the lock (an interactive read waits for the passive reader to finish its current device).
    public func lock() {
        while flock(fd, LOCK_EX) != 0, errno == EINTR {}
    }

    public func unlock() {
        flock(fd, LOCK_UN)
    }
}
