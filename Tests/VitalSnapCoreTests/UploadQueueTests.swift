import Foundation
@testable import VitalSnapCore
import VitalSnapRecords
import XCTest

final class UploadQueueTests: XCTestCase {
    func testSubmittedRecordsAndImagesSurviveReopeningInOrder() throws {
        let directory = makeDataDirectory()
        let image = Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<2000).map { UInt8($0 & 0xFF) })
        let records = try [120.0, 95, 301].map { try glucose($0) }
        do {
            let queue = try UploadQueue(directory: directory)
            try queue.submit(records[0], owner: "o/u")
            try queue.submit(records[1], image: image, owner: "o/u")
            try queue.submit(records[2], owner: nil)
        }
        let reopened = try UploadQueue(directory: directory)
        let pending = try reopened.pending()
        XCTAssertEqual(try pending.map { try $0.record() }, records)
        XCTAssertEqual(pending.map(\.activityID), records.map(\.activityID))
        XCTAssertNil(pending[0].imagePath)
        let stored = try XCTUnwrap(pending[1].imagePath)
        XCTAssertEqual(FileManager.default.contents(atPath: stored), image)
        XCTAssertEqual(try reopened.pending(owner: "o/u").count, 2)
    }

    func testAnImageWhoseRowLeftBeforeAKillIsRemovedByTheNextOpenAndNoOtherIs() throws {
        let directory = makeDataDirectory()
        let image = Data([0xFF, 0xD8] + (0..<500).map { UInt8($0 & 0xFF) })
        let kept: String
        do {
            let queue = try UploadQueue(directory: directory)
            let sent = try queue.submit(try glucose(110), image: image, owner: nil)
            kept = try XCTUnwrap(try queue.submit(try glucose(120), image: image, owner: nil).imagePath)
            // What imageFinished does up to its unlink, where a SIGKILL may land: the row leaves, its name is noted.
            try queue.locked {
                try queue.database.transaction {
                    _ = try queue.noteImagesToUnlink(where: "sequence = ?1") { try $0.bind(1, sent.sequence) }
                    try queue.database.execute("DELETE FROM pending WHERE sequence = \(sent.sequence)")
                }
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.imagesFolder).count, 2)
        }
        let reopened = try UploadQueue(directory: directory)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.imagesFolder), [(kept as NSString).lastPathComponent])
        XCTAssertEqual(try reopened.pending().map(\.imagePath), [kept])
        XCTAssertEqual(try reopened.database.scalarInt("SELECT COUNT(*) FROM unlinking"), 0)
    }

    func testFilesArePrivateToTheUser() throws {
        let directory = makeDataDirectory()
        let queue = try UploadQueue(directory: directory)
        let item = try queue.submit(try glucose(100), image: Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]), owner: nil)
        var info = stat()
        XCTAssertEqual(stat(directory.path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        for file in [directory.queueDatabase, directory.queueDatabase + "-wal"] {
            XCTAssertEqual(stat(file, &info), 0, file)
            XCTAssertEqual(info.st_mode & 0o777, 0o600, file)
        }
        XCTAssertEqual(stat(try XCTUnwrap(item.imagePath), &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertTrue(item.imagePath!.hasSuffix(".png"))
    }

    func testAnInvalidRecordIsRefusedAndNothingIsStored() throws {
        let queue = try UploadQueue(directory: makeDataDirectory())
        var record = try glucose(100)
        record.header.extras["peripheral_id"] = "9"  // reserved: written from the typed property only
        XCTAssertThrowsError(try queue.submit(record, image: Data([1, 2, 3]), owner: nil)) { error in
            XCTAssertTrue(error is RecordValidationError, "\(error)")
        }
        XCTAssertEqual(try queue.count(), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: queue.directory.imagesFolder), [])
    }

    func testADuplicateActivityIDIsRefusedWithoutTouchingTheFirstRecordsImage() throws {
        let queue = try UploadQueue(directory: makeDataDirectory())
        let first = try queue.submit(try glucose(100, id: "same"), image: Data([0xFF, 0xD8, 1]), owner: nil)
        XCTAssertThrowsError(try queue.submit(try glucose(110, id: "same"), image: Data([0xFF, 0xD8, 2]), owner: nil)) { error in
            XCTAssertEqual(error as? QueueError, .duplicateActivityID("same"))
        }
        XCTAssertEqual(try queue.count(), 1)
        XCTAssertEqual(FileManager.default.contents(atPath: first.imagePath!), Data([0xFF, 0xD8, 1]))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: queue.directory.imagesFolder).count, 1)
    }

    func testAnotherProgramsDatabaseIsAnErrorAndLeftUntouched() throws {
        let directory = makeDataDirectory()
        try directory.create()
        let database = try SQLiteDatabase(path: directory.queueDatabase, create: true)
        try database.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        let before = FileManager.default.contents(atPath: directory.queueDatabase)
        XCTAssertThrowsError(try UploadQueue(directory: directory)) { error in
            guard case .foreignDatabase = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("not a VitalSnap queue"), "\(error)")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: directory.queueDatabase), before)
    }

    func testAFileThatIsNotADatabaseIsAnErrorAndLeftUntouched() throws {
        let directory = makeDataDirectory()
        try directory.create()
        let text = Data(String(repeating: "not a database\n", count: 100).utf8)
        try text.write(to: URL(fileURLWithPath: directory.queueDatabase))
        XCTAssertThrowsError(try UploadQueue(directory: directory)) { error in
            guard case .foreignDatabase = error as? StorageError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(FileManager.default.contents(atPath: directory.queueDatabase), text)
    }

    func testADamagedQueueIsAnErrorAndNeverReset() throws {
        let directory = makeDataDirectory()
        do {
            let queue = try UploadQueue(directory: directory)
            for i in 0..<200 { try queue.submit(try glucose(Double(50 + i)), owner: nil) }
        }
        // Fold the write-ahead log into the file, then overwrite the middle of it (table pages, not the header).
        let database = try SQLiteDatabase(path: directory.queueDatabase, create: false)
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: directory.queueDatabase))
        XCTAssertGreaterThan(bytes.count, 3 * 4096)
        for i in 4096..<(bytes.count - 4096) where i % 7 == 0 { bytes[i] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: directory.queueDatabase))
        XCTAssertThrowsError(try UploadQueue(directory: directory)) { error in
            guard case .damagedDatabase = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("left untouched"), "\(error)")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: directory.queueDatabase), bytes)
    }

    /// The file system cannot be filled here without privileges, so the database is capped in pages:
    /// SQLite then fails writes with SQLITE_FULL, the same code a full disk gives.
    func testAFullDiskFailsTheSubmitLoudlyAndKeepsWhatWasStored() throws {
        let directory = makeDataDirectory()
        let queue = try UploadQueue(directory: directory, maximumPages: 12)
        var stored: [String] = []
        var failure: Error?
        for i in 0..<500 {
            var record = try glucose(100)
            record.header.extras["note"] = String(repeating: "x", count: 900) + "\(i)"
            do {
                try queue.submit(record, owner: nil)
                stored.append(record.activityID)
            } catch {
                failure = error
                break
            }
        }
        guard case .diskFull = failure as? StorageError else { return XCTFail("expected a full disk, got \(String(describing: failure))") }
        XCTAssertGreaterThan(stored.count, 0)
        XCTAssertEqual(try UploadQueue(directory: directory).pending().map(\.activityID), stored)
    }

    func testRecordsWithoutASessionGoToTheNextUserAndPurgeTakesOnlyTheOwners() throws {
        let queue = try UploadQueue(directory: makeDataDirectory())
        try queue.submit(try glucose(100), image: Data([0xFF, 0xD8]), owner: "o/old")
        try queue.submit(try glucose(101), owner: nil)
        XCTAssertEqual(try queue.purge(owner: "o/old"), 1)
        XCTAssertEqual(try queue.adoptUnowned(by: "o/new"), 1)
        XCTAssertEqual(try queue.pending(owner: "o/new").count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: queue.directory.imagesFolder), [])
        XCTAssertEqual(try queue.purge(), 1)
        XCTAssertEqual(try queue.count(), 0)
    }

    /// A real full file system: a 256 KB tmpfs, where this machine allows mounting one (root, no sandbox rule
    /// against it); skipped elsewhere, where the page-capped test above stands in.
    func testAFullTmpfsFailsTheSubmitLoudlyAndLeavesNoPartialFiles() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint]
        mount.standardError = FileHandle.nullDevice
        guard (try? mount.run()) != nil else { throw XCTSkip("no /bin/mount") }
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else {
            try? FileManager.default.removeItem(atPath: mountPoint)
            throw XCTSkip("cannot mount a tmpfs here (needs root and a sandbox that allows it)")
        }
        addTeardownBlock {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [mountPoint]
            try? umount.run()
            umount.waitUntilExit()
            try? FileManager.default.removeItem(atPath: mountPoint)
        }
        let directory = DataDirectory(path: mountPoint + "/data")
        let queue = try UploadQueue(directory: directory)
        let image = Data([0xFF, 0xD8] + (0..<20_000).map { UInt8(($0 * 31) & 0xFF) })
        var stored: [String] = []
        var failure: Error?
        for _ in 0..<100 {
            let record = try glucose(100)
            do {
                try queue.submit(record, image: image, owner: nil)
                stored.append(record.activityID)
            } catch {
                failure = error
                break
            }
        }
        guard case .diskFull = failure as? StorageError else { return XCTFail("expected a full disk, got \(String(describing: failure))") }
        XCTAssertTrue("\(failure!)".contains("nothing was stored"))
        XCTAssertGreaterThan(stored.count, 0)
        XCTAssertEqual(try queue.pending().map(\.activityID), stored)
        // Every image left is one a queued record points to: no temporary or orphaned files.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.imagesFolder).sorted()
        let referenced = try queue.pending().compactMap { $0.imagePath.map { ($0 as NSString).lastPathComponent } }.sorted()
        XCTAssertEqual(files, referenced)
    }
}
