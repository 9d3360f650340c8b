import Foundation

/// Where VitalSnap keeps its state: the session, the upload queue and the images waiting to go with it.
///
/// Chosen in this order: an explicit path (`--data-dir`), `VITALSNAP_DATA_DIR`, `$XDG_DATA_HOME/vitalsnap`,
/// `~/.local/share/vitalsnap`. It is made on first use with mode 0700: it holds an access token and health data.
public struct DataDirectory: Sendable, Hashable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The directory for `explicit` (a command-line option), else from the environment.
    public static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> DataDirectory {
        if let explicit, !explicit.isEmpty { return DataDirectory(path: explicit) }
        if let path = environment["VITALSNAP_DATA_DIR"], !path.isEmpty { return DataDirectory(path: path) }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return DataDirectory(path: xdg + "/vitalsnap") }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return DataDirectory(path: home + "/.local/share/vitalsnap")
    }

    public var sessionFile: String { path + "/session.json" }
    public var queueDatabase: String { path + "/queue.sqlite" }
    public var imagesFolder: String { path + "/images" }
    public var uploadLock: String { path + "/upload.lock" }

    /// Creates the directory (and its images folder) private to the user; an existing one is left as it is.
    public func create() throws(StorageError) {
        for folder in [path, imagesFolder] {
            var info = stat()
            if stat(folder, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: folder) }
                continue
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotWrite(path: folder, reason: (error as NSError).localizedDescription)
            }
        }
    }

    public var exists: Bool { FileManager.default.fileExists(atPath: path) }
}
