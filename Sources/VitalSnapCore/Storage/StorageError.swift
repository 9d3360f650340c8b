/// Why the data directory, the session file or the upload queue could not be used. Every case names the file.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    case notADirectory(path: String)
    case cannotWrite(path: String, reason: String)
    case cannotRead(path: String, reason: String)
    /// The disk (or the file system's quota) is full: nothing was stored.
    case diskFull(path: String)
    /// The file exists but is not VitalSnap's queue: another program's database, or not a database at all.
    case foreignDatabase(path: String, reason: String)
    /// VitalSnap's queue, but damaged: SQLite's integrity check failed or a row cannot be read.
    case damagedDatabase(path: String, reason: String)
    /// Made by a newer VitalSnap: its layout is unknown to this one.
    case newerDatabase(path: String, version: Int)
    case database(path: String, reason: String)

    public var description: String {
        switch self {
        case .notADirectory(let path): "\(path) is not a directory"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .diskFull(let path): "the disk is full: nothing was stored in \(path)"
        case .foreignDatabase(let path, let reason):
            "\(path) is not a VitalSnap queue (\(reason)); it was left untouched: move it away or choose another --data-dir"
        case .damagedDatabase(let path, let reason):
            "\(path) is damaged (\(reason)); it was left untouched so nothing in it is lost: copy it somewhere safe "
                + "before trying to repair it (sqlite3 \(path) .recover)"
        case .newerDatabase(let path, let version):
            "\(path) was made by a newer VitalSnap (queue layout \(version)); use that version"
        case .database(let path, let reason): "\(path): \(reason)"
        }
    }
}
