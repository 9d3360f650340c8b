import Foundation
import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

final class BatchRunnerTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Blank images (no reading) interleaved with paths that do not exist (errors, immediate). The first
    /// image is large enough to take the reader a while; the others are too small to hold digits and come
    /// back at once, so later results are ready long before the first.
    func mixedEntries(_ count: Int) throws -> [ImageFileCollector.Entry] {
        var entries: [ImageFileCollector.Entry] = []
        for i in 0..<count {
            let path = folder.appendingPathComponent(String(format: "%03d.png", i)).path
            if i % 3 != 1 {
                let image = i == 0
                    ? GrayImage(width: 40, height: 30, fill: 200)
                    : GrayImage(width: 4 + i % 3, height: 4, fill: UInt8(100 + i))
                try ImageEncoder.write(try ImageEncoder.png(image), to: path)
            }
            entries.append(ImageFileCollector.Entry(path: path))
        }
        // An entry the collector could not list is an error without reading.
        entries.append(ImageFileCollector.Entry(path: "locked", error: "cannot list folder locked: permission denied"))
        return entries
    }

    func testDeliversEveryResultInInputOrderWithSeveralJobs() throws {
        let catalog = try PeripheralCatalog.builtIn()
        let entries = try mixedEntries(30)
        for jobs in [1, 3, 8] {
            let runner = BatchRunner(peripheral: try XCTUnwrap(catalog[9]), unit: nil, jobs: jobs, reader: .rules)
            var delivered: [Int] = []
            var files: [String] = []
            var statuses: [PhotoResult.Status] = []
            runner.run(entries) { index, result in
                delivered.append(index)
                files.append(result.file)
                statuses.append(result.status)
            }
            XCTAssertEqual(delivered, Array(0..<entries.count), "jobs \(jobs)")
            XCTAssertEqual(files, entries.map(\.path), "jobs \(jobs)")
            let expected = entries.indices.map { i -> PhotoResult.Status in
                i == entries.count - 1 || i % 3 == 1 ? .error : .noReading
            }
            XCTAssertEqual(statuses, expected, "jobs \(jobs)")
        }
    }

    func testErrorMessagesSayWhatIsWrong() throws {
        let catalog = try PeripheralCatalog.builtIn()
        let empty = folder.appendingPathComponent("empty.jpg").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let truncated = folder.appendingPathComponent("truncated.jpg").path
        var gradient = GrayImage(width: 96, height: 64)
        for y in 0..<64 { for x in 0..<96 { gradient[x, y] = UInt8((x * 2 + y) & 0xFF) } }
        let jpeg = try ImageEncoder.jpeg(gradient, quality: 90)
        try ImageEncoder.write(Array(jpeg.prefix(jpeg.count / 2)), to: truncated)
        let missing = folder.appendingPathComponent("missing.png").path
        var messages: [String] = []
        BatchRunner(peripheral: try XCTUnwrap(catalog[9]), unit: nil, jobs: 2, reader: .rules)
            .run([empty, truncated, missing].map { ImageFileCollector.Entry(path: $0) }) { _, result in
                XCTAssertEqual(result.status, .error, result.file)
                messages.append(result.message ?? "")
            }
        XCTAssertTrue(messages[0].contains("empty"), messages[0])
        XCTAssertTrue(messages[1].lowercased().contains("truncated"), messages[1])
        XCTAssertTrue(messages[2].contains("no such file"), messages[2])
    }

    func testEachEntryIsReadWithItsOwnSetting() throws {
        let catalog = try PeripheralCatalog.builtIn()
        let entries = try mixedEntries(12)
        let settings = entries.indices.map { i in
            ReaderSetting(peripheral: catalog[[9, 2, 101][i % 3]]!, unit: i % 3 == 0 ? "mmol/L" : nil)
        }
        final class Asked: @unchecked Sendable {
            let lock = NSLock()
            var indices: [Int] = []
            func add(_ i: Int) { lock.lock(); indices.append(i); lock.unlock() }
        }
        let asked = Asked()
        let runner = BatchRunner(jobs: 3, reader: .rules) { index in
            asked.add(index)
            return settings[index]
        }
        var count = 0
        runner.run(entries) { index, _ in
            XCTAssertEqual(index, count)
            count += 1
        }
        XCTAssertEqual(count, entries.count)
        // Asked once per entry that is read (not for the entry that carries its listing error).
        XCTAssertEqual(asked.indices.sorted(), Array(0..<(entries.count - 1)))
        XCTAssertEqual(Set(settings.map(\.key)).count, 3)
    }

    func testNothingToRun() throws {
        let catalog = try PeripheralCatalog.builtIn()
        BatchRunner(peripheral: try XCTUnwrap(catalog[9]), unit: nil, jobs: 4, reader: .rules).run([]) { _, _ in XCTFail("nothing to deliver") }
    }

    func testCollectorExpandsFoldersToImagesInNameOrderAndReportsMissingPaths() throws {
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        for name in ["b.jpg", "a.PNG", "notes.txt", ".hidden.png", "sub/c.jpeg", "d.webp", "e.HEIC", "f.heif", "g.avif", "h.heic.txt", "heic"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data([1]))
        }
        // A link back up the tree must not loop.
        try FileManager.default.createSymbolicLink(atPath: sub.appendingPathComponent("loop").path, withDestinationPath: folder.path)
        let explicit = folder.appendingPathComponent("notes.txt").path
        let entries = ImageFileCollector.collect([folder.path, "/nonexistent/x.jpg", explicit])
        XCTAssertEqual(entries.map(\.path), [
            folder.appendingPathComponent("a.PNG").path, folder.appendingPathComponent("b.jpg").path,
            folder.appendingPathComponent("d.webp").path, folder.appendingPathComponent("e.HEIC").path,
            folder.appendingPathComponent("f.heif").path, folder.appendingPathComponent("g.avif").path,
            sub.appendingPathComponent("c.jpeg").path, "/nonexistent/x.jpg", explicit,
        ])
        XCTAssertEqual(entries.map { $0.error != nil }, [false, false, false, false, false, false, false, true, false])
        XCTAssertEqual(entries[7].error, "no such file or folder: /nonexistent/x.jpg")
    }

    /// Entries of a stream are taken only as far ahead of delivery as the read-ahead window allows.
    func testStreamingRunTakesEntriesOnlyAWindowAhead() throws {
        let catalog = try PeripheralCatalog.builtIn()
        let pulled = Counter()
        // Entries with an error are done without reading, so the workers race ahead as far as they may.
        let entries = (0..<2_000).lazy.map { i -> ImageFileCollector.Entry in
            pulled.increment()
            return ImageFileCollector.Entry(path: "\(i)", error: "listed as an error")
        }
        let jobs = 3
        let runner = BatchRunner(peripheral: try XCTUnwrap(catalog[9]), unit: nil, jobs: jobs, reader: .rules)
        var mostAhead = 0, delivered: [Int] = []
        let count = runner.run(streaming: entries) { index, result in
            mostAhead = max(mostAhead, pulled.value - (index + 1))
            delivered.append(index)
            XCTAssertEqual(result.file, "\(index)")
            return .goOn
        }
        XCTAssertEqual(count, 2_000)
        XCTAssertEqual(delivered, Array(0..<2_000))
        XCTAssertLessThanOrEqual(mostAhead, jobs * BatchRunner.readAheadPerJob)
    }

    func testDeliveryCanStopTheRun() throws {
        let catalog = try PeripheralCatalog.builtIn()
        let pulled = Counter()
        let entries = (0..<10_000).lazy.map { i -> ImageFileCollector.Entry in
            pulled.increment()
            return ImageFileCollector.Entry(path: "\(i)", error: "listed as an error")
        }
        let runner = BatchRunner(peripheral: try XCTUnwrap(catalog[9]), unit: nil, jobs: 2, reader: .rules)
        var delivered: [Int] = []
        let count = runner.run(streaming: entries) { index, _ in
            delivered.append(index)
            return index == 4 ? .stop : .goOn
        }
        XCTAssertEqual(count, 5)
        XCTAssertEqual(delivered, [0, 1, 2, 3, 4])
        XCTAssertLessThanOrEqual(pulled.value, 5 + 2 * BatchRunner.readAheadPerJob, "no entry is taken after the stop")
    }

    func testTheFileStreamListsPathsOnlyAsItIsRead() throws {
        for name in ["a.png", "b.jpg"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data([1]))
        }
        let pulled = Counter()
        let paths = [folder.path, "/nonexistent/1.jpg", "/nonexistent/2.jpg"].lazy.map { path -> String in
            pulled.increment()
            return path
        }
        var stream = ImageFileCollector.stream(paths)
        XCTAssertEqual(stream.next()?.path, folder.appendingPathComponent("a.png").path)
        XCTAssertEqual(stream.next()?.path, folder.appendingPathComponent("b.jpg").path)
        XCTAssertEqual(pulled.value, 1, "the folder's files come before the next path is read")
        XCTAssertEqual(stream.next()?.error, "no such file or folder: /nonexistent/1.jpg")
        XCTAssertEqual(pulled.value, 2)
    }

    func testShardsPartitionPathsEvenlyAndStably() throws {
        // FNV-1a's published 64-bit vectors: the split must not change between versions or machines.
        XCTAssertEqual(BatchShard.hash(""), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(BatchShard.hash("a"), 0xaf63_dc4c_8601_ec8c)
        let paths = (0..<4_000).map { "photos/patient-\($0 % 97)/IMG_\(1000 + $0).HEIC" }
        for n in [1, 2, 3, 4, 7] {
            let shards = try (1...n).map { try BatchShard(index: $0, count: n) }
            var sizes = [Int](repeating: 0, count: n)
            for path in paths {
                let owners = shards.indices.filter { shards[$0].contains(path) }
                XCTAssertEqual(owners.count, 1, path)
                sizes[owners[0]] += 1
            }
            let expected = paths.count / n
            XCTAssertTrue(sizes.allSatisfy { abs($0 - expected) < expected / 5 }, "\(n) shards: \(sizes)")
        }
        XCTAssertEqual(try BatchShard(parsing: "2/5"), try BatchShard(index: 2, count: 5))
        for bad in ["2", "0/3", "4/3", "1/0", "a/b", "1/2/3", ""] {
            XCTAssertThrowsError(try BatchShard(parsing: bad), bad)
        }
    }
}

/// A count shared with a closure that other threads may call.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
