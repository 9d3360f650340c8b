import Foundation
import Logging
import VitalSnapRecords

/// The durable queue every module hands its records to: one SQLite file in WAL mode in the data directory,
/// and the records' images as files beside it.
///
/// `submit` returns only once the record is on disk (its image first, then the row in one transaction, with
/// `synchronous=FULL`), so a crash or a kill right after loses nothing. Rows leave the queue only when the
/// server has accepted them (or refused them for good, which moves them to `rejected`); a record sent again after
/// a crash is harmless, because the server deduplicates by activity ID.
///
/// Records belong to the session's user (`owner`). Records submitted with no session have no owner yet and
/// go to the next user whose session starts.
public final class UploadQueue: @unchecked Sendable {
    public let directory: DataDirectory
    let database: SQLiteDatabase
    /// Held while the connection is used; a `BulkWriter` holds it across calls while its transaction is open.
    let lock = NSLock()
    private let logger = Logger(label: "vitalsnap.core")

    /// 'VSNQ': marks the file as VitalSnap's queue, so another program's database is never taken for one.
    static let applicationID: Int64 = 0x5653_4E51
    static let layoutVersion: Int64 = 1

    /// Opens the queue in `directory`, creating both when missing. An existing file that is not a VitalSnap queue,
    /// or is damaged, is an error and is never replaced.
    public init(directory: DataDirectory, maximumPages: Int? = nil) throws(StorageError) {
        self.directory = directory
        try directory.create()
        let path = directory.queueDatabase
        let isNew = !FileManager.default.fileExists(atPath: path)
            || ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) == 0
        if isNew {
            // SQLite creates files with the process's umask (often 0644); this one holds health data, so it is
            // made private first, and the -wal and -shm files SQLite adds copy its mode.
            let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            if fd >= 0 { fchmod(fd, 0o600); close(fd) }
        }
        do {
            database = try SQLiteDatabase(path: path, create: isNew)
        } catch {
            throw Self.storageError(error, path: path)
        }
        try Self.mappingErrors(path: path) { try openLayout(isNew: isNew, maximumPages: maximumPages) }
    }

    private func openLayout(isNew: Bool, maximumPages: Int?) throws {
        if let maximumPages { try database.execute("PRAGMA max_page_count = \(maximumPages)") }
        if isNew {
            try createLayout()
        } else {
            try checkLayout()
        }
        try createUnlinkingTable()
        try finishNotedUnlinks()
        // Durable at commit even on power loss; WAL lets readers (queue list) run while an upload writes.
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = FULL")
    }

    private func createLayout() throws(SQLiteError) {
        try database.execute("""
            PRAGMA application_id = \(Self.applicationID);
            PRAGMA user_version = \(Self.layoutVersion);
            CREATE TABLE IF NOT EXISTS pending (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                activity_id TEXT NOT NULL UNIQUE,
                record_type TEXT NOT NULL,
                record_json BLOB NOT NULL,
                owner TEXT,
                image_file TEXT,
                server_record_id TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                queued_at REAL NOT NULL
            );
            CREATE TABLE IF NOT EXISTS rejected (
                activity_id TEXT NOT NULL,
                record_type TEXT NOT NULL,
                record_json BLOB NOT NULL,
                owner TEXT,
                status INTEGER NOT NULL,
                message TEXT NOT NULL,
                rejected_at REAL NOT NULL
            );
            CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            """)
    }

    private func checkLayout() throws {
        let path = directory.queueDatabase
        // The first read of a file that is not SQLite fails with SQLITE_NOTADB.
        let application = try database.scalarInt("PRAGMA application_id") ?? 0
        guard application == Self.applicationID else {
            throw StorageError.foreignDatabase(
                path: path, reason: application == 0 ? "an SQLite database made by another program" : "application id \(application)")
        }
        let version = try database.scalarInt("PRAGMA user_version") ?? 0
        if version > Self.layoutVersion { throw StorageError.newerDatabase(path: path, version: Int(version)) }
        let check = try database.scalarText("PRAGMA quick_check") ?? "no answer"
        guard check == "ok" else { throw StorageError.damagedDatabase(path: path, reason: check) }
    }

    static func storageError(_ error: SQLiteError, path: String) -> StorageError {
        if error.isDiskFull { return .diskFull(path: path) }
        if error.isNotADatabase { return .foreignDatabase(path: path, reason: "not an SQLite database") }
        if error.isCorrupt { return .damagedDatabase(path: path, reason: error.message) }
        return .database(path: path, reason: error.message)
    }

    /// Runs `body`, turning whatever it throws into the `StorageError` that names the queue file.
    static func mappingErrors<T>(path: String, _ body: () throws -> T) throws(StorageError) -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw storageError(error, path: path)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .database(path: path, reason: "\(error)")
        }
    }

    func locked<T>(_ body: () throws -> T) throws(StorageError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try Self.mappingErrors(path: directory.queueDatabase, body)
    }

    // MARK: - Submitting

    /// Validates `record` and stores it, with `image` (JPEG or PNG bytes) when given, for `owner` (nil: the next
    /// session's user). Returns once both are on disk. A record whose activity ID is already queued is refused.
    @discardableResult
    public func submit(_ record: Record, image: Data? = nil, owner: String?) throws -> QueuedRecord {
        try record.validate()
        let json = try RecordJSON.encode(record)
        var imageName: String?
        if let image {
            // Unique even for a duplicate activity ID, whose refusal must not delete the first record's image.
            let name = "\(Self.fileSafe(record.activityID))-\(UInt32.random(in: 0...UInt32.max)).\(Self.imageExtension(image))"
            try DurableFile.write(image, to: directory.imagesFolder + "/" + name, mode: 0o600)
            imageName = name
        }
        let now = Date()
        do {
            let sequence: Int64 = try locked {
                try database.transaction {
                    let insert = try database.prepare("""
                        INSERT INTO pending (activity_id, record_type, record_json, owner, image_file, queued_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """)
                    try insert.bind(1, record.activityID)
                    try insert.bind(2, record.type.rawValue)
                    try insert.bind(3, json)
                    try insert.bind(4, owner)
                    try insert.bind(5, imageName)
                    try insert.bind(6, Int64(now.timeIntervalSince1970))
                    try insert.step()
                    return database.lastInsertRowID
                }
            }
            logger.debug("queued \(record.type.rawValue) \(record.activityID) as \(sequence)")
            return QueuedRecord(
                sequence: sequence, activityID: record.activityID, type: record.type, json: json,
                imagePath: imageName.map { directory.imagesFolder + "/" + $0 }, serverRecordID: nil, attempts: 0,
                lastError: nil, queuedAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)))
        } catch {
            // The row is not there, so neither may its image be.
            if let imageName { unlink(directory.imagesFolder + "/" + imageName) }
            if case .database(_, let reason) = error, reason.contains("UNIQUE") {
                throw QueueError.duplicateActivityID(record.activityID)
            }
            throw error
        }
    }

    /// What `BulkWriter.add` did.
    public struct BatchResult: Sendable, Equatable {
        /// Records stored now (new, or replacing the older content of a waiting one).
        public var queued = 0
        /// Records already queued with the same content: left as they were.
        public var alreadyQueued = 0
        /// For each record of the batch, in order: whether it was stored now.
        public var stored: [Bool] = []
        public init() {}

        mutating func add(stored now: Bool) {
            if now { queued += 1 } else { alreadyQueued += 1 }
            stored.append(now)
        }
    }

    /// Stores one record (no image). A record whose activity ID is already queued with the same content is
    /// skipped, not an error: an import run again, or cut short and run again, adds only what is not there. One
    /// queued with other content (a day's total that grew since) is replaced by the new content, still waiting:
    /// it is the same record, newer.
    static let upsert = """
        INSERT INTO pending (activity_id, record_type, record_json, owner, image_file, queued_at)
        VALUES (?, ?, ?, ?, NULL, ?)
        ON CONFLICT (activity_id) DO UPDATE SET record_json = excluded.record_json
        WHERE record_json != excluded.record_json
        """

    /// Runs `upsert` (prepared as `statement`) for one record; whether it was stored.
    func store(_ entry: QueueEntry, owner: String?, queuedAt: Int64, with statement: SQLiteStatement) throws(SQLiteError) -> Bool {
        try statement.bind(1, entry.activityID)
        try statement.bind(2, entry.type.rawValue)
        try statement.bind(3, entry.json)
        try statement.bind(4, owner)
        try statement.bind(5, queuedAt)
        _ = try statement.step()
        defer { statement.reset() }
        return database.changes > 0
    }

    static func imageExtension(_ data: Data) -> String {
        data.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "png" : "jpg"
    }

    /// Activity IDs are client-made, but may come from elsewhere (a Bluetooth record's hash): only safe characters
    /// reach the file name.
    static func fileSafe(_ id: String) -> String {
        String(id.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }

    // MARK: - Reading

    /// The records waiting for `owner` (all of them when nil), oldest first.
    public func pending(owner: String? = nil, limit: Int? = nil) throws(StorageError) -> [QueuedRecord] {
        try locked {
            let statement = try database.prepare("""
                SELECT sequence, activity_id, record_type, record_json, image_file, server_record_id, attempts,
                       last_error, queued_at
                FROM pending WHERE ?1 IS NULL OR owner = ?1 ORDER BY sequence LIMIT ?2
                """)
            try statement.bind(1, owner)
            try statement.bind(2, Int64(limit ?? -1))
            var rows: [QueuedRecord] = []
            while try statement.step() {
                guard let type = statement.text(2).flatMap(RecordType.init(rawValue:)) else {
                    throw StorageError.damagedDatabase(
                        path: directory.queueDatabase, reason: "record \(statement.int(0)) has an unknown type \(statement.text(2) ?? "")")
                }
                rows.append(QueuedRecord(
                    sequence: statement.int(0), activityID: statement.text(1) ?? "", type: type, json: statement.data(3),
                    imagePath: statement.text(4).map { directory.imagesFolder + "/" + $0 },
                    serverRecordID: statement.text(5), attempts: Int(statement.int(6)), lastError: statement.text(7),
                    queuedAt: Date(timeIntervalSince1970: Double(statement.int(8)))))
            }
            return rows
        }
    }

    public func count(owner: String? = nil) throws(StorageError) -> Int {
        try locked {
            let statement = try database.prepare("SELECT count(*) FROM pending WHERE ?1 IS NULL OR owner = ?1")
            try statement.bind(1, owner)
            try statement.step()
            return Int(statement.int(0))
        }
    }

    public func rejected() throws(StorageError) -> [RejectedRecord] {
        try locked {
            let statement = try database.prepare(
                "SELECT activity_id, record_type, record_json, status, message, rejected_at FROM rejected ORDER BY rowid")
            var rows: [RejectedRecord] = []
            while try statement.step() {
                rows.append(RejectedRecord(
                    activityID: statement.text(0) ?? "", type: statement.text(1).flatMap(RecordType.init(rawValue:)) ?? .diabetes,
                    json: statement.data(2), status: Int(statement.int(3)), message: statement.text(4) ?? "",
                    rejectedAt: Date(timeIntervalSince1970: Double(statement.int(5)))))
            }
            return rows
        }
    }

    // MARK: - Outcomes of uploads

    /// The server accepted the record: with an image still to send, the row stays with the server's record ID;
    /// without one, it leaves the queue.
    public func recordAccepted(_ item: QueuedRecord, serverRecordID: String) throws(StorageError) {
        try locked {
            if item.imagePath == nil {
                try execute("DELETE FROM pending WHERE sequence = ?", item.sequence)
            } else {
                let statement = try database.prepare(
                    "UPDATE pending SET server_record_id = ?, attempts = 0, last_error = NULL WHERE sequence = ?")
                try statement.bind(1, serverRecordID)
                try statement.bind(2, item.sequence)
                try statement.step()
            }
        }
    }

    /// The image was sent (or refused for good): the row leaves the queue, then its file.
    public func imageFinished(_ item: QueuedRecord) throws(StorageError) {
        let names = try locked {
            try database.transaction {
                let names = try noteImagesToUnlink(where: "sequence = ?1") { try $0.bind(1, item.sequence) }
                try execute("DELETE FROM pending WHERE sequence = ?", item.sequence)
                return names
            }
        }
        unlinkNotedImages(names)
    }

    /// The server refused the record (400): it moves to `rejected` with the reason; its image is deleted.
    public func recordRejected(_ item: QueuedRecord, status: Int, message: String) throws(StorageError) {
        let names = try locked {
            try database.transaction {
                let names = try noteImagesToUnlink(where: "sequence = ?1") { try $0.bind(1, item.sequence) }
                let insert = try database.prepare("""
                    INSERT INTO rejected (activity_id, record_type, record_json, owner, status, message, rejected_at)
                    SELECT activity_id, record_type, record_json, owner, ?, ?, ? FROM pending WHERE sequence = ?
                    """)
                try insert.bind(1, Int64(status))
                try insert.bind(2, message)
                try insert.bind(3, Int64(Date().timeIntervalSince1970))
                try insert.bind(4, item.sequence)
                try insert.step()
                try execute("DELETE FROM pending WHERE sequence = ?", item.sequence)
                return names
            }
        }
        unlinkNotedImages(names)
    }

    /// A failed attempt that will be retried: counted, with its reason.
    public func attemptFailed(_ item: QueuedRecord, reason: String) throws(StorageError) {
        try locked {
            let statement = try database.prepare(
                "UPDATE pending SET attempts = attempts + 1, last_error = ? WHERE sequence = ?")
            try statement.bind(1, reason)
            try statement.bind(2, item.sequence)
            try statement.step()
        }
    }

    // MARK: - Pausing, owners, purging

    /// Why uploads are paused (the server refused the credentials), or nil when they may run.
    public func pauseReason() throws(StorageError) -> String? {
        try locked { try database.scalarText("SELECT value FROM state WHERE key = 'paused'") }
    }

    public func pause(reason: String) throws(StorageError) {
        try locked {
            let statement = try database.prepare("INSERT OR REPLACE INTO state (key, value) VALUES ('paused', ?)")
            try statement.bind(1, reason)
            try statement.step()
        }
    }

    public func resume() throws(StorageError) {
        try locked {
            try database.execute("DELETE FROM state WHERE key = 'paused'")
            try database.execute("UPDATE pending SET attempts = 0")
        }
    }

    /// Gives records queued without a session to `owner`; returns how many.
    @discardableResult
    public func adoptUnowned(by owner: String) throws(StorageError) -> Int {
        try locked {
            let statement = try database.prepare("UPDATE pending SET owner = ? WHERE owner IS NULL")
            try statement.bind(1, owner)
            try statement.step()
            return database.changes
        }
    }

    /// Deletes the records of `owner` (nil: every record, whoever it belongs to) and their images, and lifts a
    /// pause; returns how many records went.
    @discardableResult
    public func purge(owner: String? = nil) throws(StorageError) -> Int {
        let (removed, images): (Int, [String]) = try locked {
            try database.transaction {
                let names = try noteImagesToUnlink(where: "?1 IS NULL OR owner = ?1") { try $0.bind(1, owner) }
                let delete = try database.prepare("DELETE FROM pending WHERE ?1 IS NULL OR owner = ?1")
                try delete.bind(1, owner)
                try delete.step()
                let removed = database.changes
                try database.execute("DELETE FROM state WHERE key = 'paused'")
                return (removed, names)
            }
        }
        unlinkNotedImages(images)
        return removed
    }

    private func execute(_ sql: String, _ sequence: Int64) throws {
        let statement = try database.prepare(sql)
        try statement.bind(1, sequence)
        try statement.step()
    }
}

public enum QueueError: Error, Sendable, Equatable, CustomStringConvertible {
    case duplicateActivityID(String)

    public var description: String {
        switch self {
        case .duplicateActivityID(let id): "a record with activity ID \(id) is already queued"
        }
    }
}
