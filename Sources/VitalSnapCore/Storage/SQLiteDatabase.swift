import CSQLite
import Foundation

/// One connection to an SQLite file: statements, transactions and errors that name the file.
///
/// Not shared between threads; its owner serializes access (the queue holds a lock around every use).
final class SQLiteDatabase {
    let path: String
    private var handle: OpaquePointer?

    /// Opens `path`, creating it only when `create` is set, so a mistyped path is an error rather than a new,
    /// empty queue.
    init(path: String, create: Bool) throws(SQLiteError) {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        if code != SQLITE_OK {
            let error = SQLiteError(code: code, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open", path: path)
            sqlite3_close_v2(db)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        // Other processes (a submit during an upload) wait for the lock instead of failing at once.
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text, path: path)
        }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return SQLiteStatement(statement, database: self)
    }

    /// Runs `body` in one IMMEDIATE transaction (the write lock is taken at the start, so two writers never
    /// deadlock half-way); rolls back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The first column of the first row of `sql`, as text; nil when there is no row.
    func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.text(0) : nil
    }

    func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int(0) : nil
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    fileprivate var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    fileprivate func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: lastMessage, path: path)
    }
}

/// A prepared statement: bind by position (from 1), step, read columns (from 0).
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// SQLite copies bound bytes at once (the transient destructor), so Swift's buffers may go away after.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(_ index: Int32, _ value: String?) throws(SQLiteError) {
        let code = value.map { sqlite3_bind_text(statement, index, $0, -1, Self.transient) } ?? sqlite3_bind_null(statement, index)
        if code != SQLITE_OK { throw database.error(code) }
    }

    func bind(_ index: Int32, _ value: Int64?) throws(SQLiteError) {
        let code = value.map { sqlite3_bind_int64(statement, index, $0) } ?? sqlite3_bind_null(statement, index)
        if code != SQLITE_OK { throw database.error(code) }
    }

    func bind(_ index: Int32, _ value: Data) throws(SQLiteError) {
        let code = value.withUnsafeBytes { raw in
            sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), Self.transient)
        }
        if code != SQLITE_OK { throw database.error(code) }
    }

    /// True while there is a row to read; false when done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(statement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw database.error(code)
    }

    /// Ready to run again with new bindings (a statement run once per row of a batch).
    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: pointer)
    }

    func data(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}

/// An SQLite failure with its result code, SQLite's message and the file.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var path: String

    /// The primary result code (extended codes carry detail in the high bits).
    var primaryCode: Int32 { code & 0xFF }
    var isDiskFull: Bool { primaryCode == SQLITE_FULL }
    var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }
    var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT }

    var description: String { "\(path): \(message) (SQLite error \(code))" }
}
