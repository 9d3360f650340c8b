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
            let runner = BatchRunner(peripheral: try XCTUnwrap(catalog[9]), unit: nil, jobs: jobs)
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
        BatchRunner(peripheral: try XCTUnwrap(catalog[9]), unit: nil, jobs: 2)
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
        let runner = BatchRunner(jobs: 3) { index in
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
        BatchRunner(peripheral: try XCTUnwrap(catalog[9]), unit: nil, jobs: 4).run([]) { _, _ in XCTFail("nothing to deliver") }
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
}
