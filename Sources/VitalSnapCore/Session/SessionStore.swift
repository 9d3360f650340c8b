import Foundation

/// The current session, kept in the data directory's `session.json` with mode 0600 (it holds the token).
public struct SessionStore: Sendable {
    public let directory: DataDirectory

    public init(directory: DataDirectory) {
        self.directory = directory
    }

    public func load() throws(StorageError) -> UserSession? {
        guard let data = try DurableFile.read(directory.sessionFile) else { return nil }
        do {
            return try JSONDecoder().decode(UserSession.self, from: data)
        } catch {
            throw .cannotRead(path: directory.sessionFile, reason: "not a VitalSnap session file (\(error))")
        }
    }

    public func save(_ session: UserSession) throws(StorageError) {
        try directory.create()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(session) } catch {
            throw .cannotWrite(path: directory.sessionFile, reason: "\(error)")
        }
        try DurableFile.write(data, to: directory.sessionFile, mode: 0o600)
    }

    public func delete() throws(StorageError) {
        if unlink(directory.sessionFile) != 0, errno != ENOENT {
            throw .cannotWrite(path: directory.sessionFile, reason: String(cString: strerror(errno)))
        }
        DurableFile.syncFolder(directory.path)
    }
}
