import Foundation
import VitalSnapCore
import VitalSnapRecords
import XCTest

/// The queue's writer for long imports: commits every N records, rolls back the rest when cancelled, and keeps
/// the queue's other users waiting only while a transaction is open.
final class UploadQueueBulkWriterTests: XCTestCase {
    private func encoded(_ records: [Record]) throws -> [QueueEntry] {
        try records.map(QueueEntry.init)
    }

    func testRecordsAreOnDiskAtEachCommitAndTheRestRollsBackWhenCancelled() throws {
        let directory = makeDataDirectory()
        let queue = try UploadQueue(directory: directory)
        let records = try (0..<7).map { try glucose(Double(100 + $0)) }
        let writer = queue.bulkWriter(owner: "o/u", recordsPerCommit: 3)
        let first = try writer.add(try encoded(Array(records[0..<5])))
        XCTAssertEqual(first.stored, [true, true, true, true, true])
        // Another connection (another process) sees the three committed, not the two waiting.
        XCTAssertEqual(try UploadQueue(directory: directory).pending().map(\.activityID), records[0..<3].map(\.activityID))
        writer.cancel()
        XCTAssertEqual(try queue.pending().map(\.activityID), records[0..<3].map(\.activityID))

        // Again, to the end: what is there is skipped, the rest stored and on disk after finish.
        let again = queue.bulkWriter(owner: "o/u", recordsPerCommit: 3)
        let second = try again.add(try encoded(records))
        XCTAssertEqual(second.queued, 4)
        XCTAssertEqual(second.alreadyQueued, 3)
        try again.finish()
        XCTAssertEqual(try UploadQueue(directory: directory).pending(owner: "o/u").map(\.activityID), records.map(\.activityID))
    }

    func testTheQueuesOtherUsersWaitForTheCommitNotForTheWriter() throws {
        let directory = makeDataDirectory()
        let queue = try UploadQueue(directory: directory)
        let writer = queue.bulkWriter(owner: nil, recordsPerCommit: 100)
        _ = try writer.add(try encoded([try glucose(120)]))
        let counted = expectation(description: "another thread counted the queue")
        let count = LockedCount()
        Thread.detachNewThread {
            count.value = (try? queue.count()) ?? -1
            counted.fulfill()
        }
        // The other thread waits while the transaction is open...
        Thread.sleep(forTimeInterval: 1.2)
        XCTAssertNil(count.value)
        // ...and sees the record once it is committed.
        try writer.finish()
        wait(for: [counted], timeout: 10)
        XCTAssertEqual(count.value, 1)
    }

    func testATransactionOpenLongerThanItsLimitIsCommittedWhateverItsSize() throws {
        let directory = makeDataDirectory()
        let queue = try UploadQueue(directory: directory)
        let writer = queue.bulkWriter(owner: nil, recordsPerCommit: 100_000, longestTransaction: .seconds(1))
        _ = try writer.add(try encoded([try glucose(120)]))
        try writer.commitIfDue()
        // Not yet due: another connection sees nothing.
        XCTAssertEqual(try UploadQueue(directory: directory).count(), 0)
        Thread.sleep(forTimeInterval: 1.2)
        try writer.commitIfDue()
        XCTAssertEqual(try UploadQueue(directory: directory).count(), 1)
        // Within `add` too, at its look at the clock (every 1024 records).
        _ = try writer.add(try encoded([try glucose(121)]))
        Thread.sleep(forTimeInterval: 1.2)
        _ = try writer.add(try encoded(try (0..<1100).map { try glucose(Double(60 + $0 % 300)) }))
        XCTAssertEqual(try UploadQueue(directory: directory).count(), 1 + 1024)
        try writer.finish()
        XCTAssertEqual(try queue.count(), 1 + 1 + 1100)
    }

    func testAnInvalidRecordMakesNoEntryAndAnEntryHoldsTheRecordsJSON() throws {
        var invalid = try glucose(100)
        invalid.header.extras["peripheral_id"] = "9"  // reserved: written from the typed property only
        XCTAssertThrowsError(try QueueEntry(invalid)) { error in
            XCTAssertTrue(error is RecordValidationError, "\(error)")
        }
        let record = try glucose(90)
        let entry = try QueueEntry(record)
        XCTAssertEqual(entry.activityID, record.activityID)
        XCTAssertEqual(entry.type, .diabetes)
        XCTAssertEqual(try RecordJSON.decode(entry.json), record)
    }
}

/// A value one thread writes and another reads.
private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int?
    var value: Int? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
