import Foundation

extension UploadQueue {
    /// Stores the records of a long import as they come, over transactions of `recordsPerCommit` records or
    /// `longestTransaction`, whichever comes first: each commit is an fsync and a write of every index page it
    /// touched, so an import of hundreds of thousands of records in batches of a few thousand spent much of its
    /// time committing; holding more records in memory to commit less would break the import's memory bound.
    ///
    /// While a transaction is open the writer holds the queue's lock, across calls: the queue's other methods,
    /// on any thread, wait for the next commit. So the thread that uses the writer must not call the queue's
    /// other methods before `finish()` (the lock is not recursive). A record is on disk once a commit that
    /// included it returned; `finish()` commits the rest; `cancel()` (or dropping the writer) rolls back what
    /// was not committed, which a kill does too. Records are stored as `UploadQueue.upsert` says.
    public final class BulkWriter {
        private let queue: UploadQueue
        private let owner: String?
        public let recordsPerCommit: Int
        /// A transaction is committed once it has been open this long, whatever its size: it holds SQLite's write
        /// lock, and another process that writes the queue (a Bluetooth service, an upload) waits for it, for at
        /// most the queue's busy timeout (10 s). 5 s by default.
        public let longestTransaction: Duration
        /// The prepared insert while a transaction is open (and the lock is held).
        private var statement: SQLiteStatement?
        private var uncommitted = 0
        private var openedAt = ContinuousClock.now
        /// Records between two looks at the clock.
        private static let recordsPerClockCheck = 1024
        private let queuedAt = Int64(Date().timeIntervalSince1970)

        /// SQLite's page cache while the writer is in use, in KiB: the index pages a transaction touches (the
        /// activity IDs are random) stay in memory rather than being read back from the file. SQLite's own
        /// default, 2000 KiB, is put back by `finish()` and `cancel()`. The activity-ID index of half a million
        /// records is 26 MB; with 8 MiB, writing them read 1.8 GB back from the WAL and wrote 1.3 GB to it (strace),
        /// with 16 MiB about half that; 24 MiB gained no more time and took the import's peak memory to 95 MB.
        static let pageCacheKiB = 16384
        static let defaultPageCacheKiB = 2000

        init(queue: UploadQueue, owner: String?, recordsPerCommit: Int, longestTransaction: Duration) {
            self.queue = queue
            self.owner = owner
            self.recordsPerCommit = max(1, recordsPerCommit)
            self.longestTransaction = longestTransaction
        }

        deinit { cancel() }

        /// Stores `entries`; commits each time `recordsPerCommit` records are waiting. On an error the open
        /// transaction is rolled back.
        public func add(_ entries: [QueueEntry]) throws(StorageError) -> BatchResult {
            var result = BatchResult()
            try writing {
                for entry in entries {
                    let insert = try open()
                    result.add(stored: try queue.store(entry, owner: owner, queuedAt: queuedAt, with: insert))
                    uncommitted += 1
                    if uncommitted >= recordsPerCommit
                        || (uncommitted % Self.recordsPerClockCheck == 0 && ContinuousClock.now - openedAt >= longestTransaction)
                    {
                        try commit()
                    }
                }
            }
            return result
        }

        /// Commits when the open transaction has been open `longestTransaction`: for a caller that goes on
        /// working between calls to `add` (an import reading a stretch of the file that makes no records).
        public func commitIfDue() throws(StorageError) {
            guard statement != nil, ContinuousClock.now - openedAt >= longestTransaction else { return }
            try writing { try commit() }
        }

        /// Commits what is waiting; the queue is free for others again.
        public func finish() throws(StorageError) {
            try writing { try commit() }
            restoreCache()
        }

        /// Rolls back what was not committed and frees the queue.
        public func cancel() {
            guard statement != nil else { return restoreCache() }
            statement = nil
            uncommitted = 0
            try? queue.database.execute("ROLLBACK")
            queue.lock.unlock()
            restoreCache()
        }

        private var cacheRaised = false

        private func restoreCache() {
            guard cacheRaised else { return }
            cacheRaised = false
            queue.lock.lock()
            try? queue.database.execute("PRAGMA cache_size = -\(Self.defaultPageCacheKiB)")
            queue.lock.unlock()
        }

        private func open() throws(SQLiteError) -> SQLiteStatement {
            if let statement { return statement }
            queue.lock.lock()
            do {
                if !cacheRaised {
                    try queue.database.execute("PRAGMA cache_size = -\(Self.pageCacheKiB)")
                    cacheRaised = true
                }
                try queue.database.execute("BEGIN IMMEDIATE")
                openedAt = .now
            } catch {
                queue.lock.unlock()
                throw error
            }
            do {
                let prepared = try queue.database.prepare(UploadQueue.upsert)
                statement = prepared
                return prepared
            } catch {
                try? queue.database.execute("ROLLBACK")
                queue.lock.unlock()
                throw error
            }
        }

        private func commit() throws(SQLiteError) {
            guard statement != nil else { return }
            statement = nil
            uncommitted = 0
            defer { queue.lock.unlock() }
            do {
                try queue.database.execute("COMMIT")
            } catch {
                try? queue.database.execute("ROLLBACK")
                throw error
            }
        }

        /// Runs `body`; on an error the open transaction is rolled back, and the error names the queue's file.
        private func writing(_ body: () throws -> Void) throws(StorageError) {
            do {
                try UploadQueue.mappingErrors(path: queue.directory.queueDatabase, body)
            } catch {
                cancel()
                throw error
            }
        }
    }

    /// A writer for a long import (see `BulkWriter`).
    public func bulkWriter(owner: String?, recordsPerCommit: Int, longestTransaction: Duration = .seconds(5)) -> BulkWriter {
        BulkWriter(queue: self, owner: owner, recordsPerCommit: recordsPerCommit, longestTransaction: longestTransaction)
    }
}
