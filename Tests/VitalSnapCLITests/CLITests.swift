import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the `vitalsnap` executable on inputs made in a temporary folder. Recognition results are never
/// asserted: only outcomes certain whatever the reader does (errors for unreadable files, no reading for a
/// blank image).
final class CLITests: XCTestCase {
    /// The rule-based reader, for the tests of what the commands print, count and refuse rather than of what the
    /// reader reads: the default trained reader tries every look it has on a blank image before it gives up,
    /// which in a debug build costs a minute and a half of CPU per image (ReaderCLITests run it through the
    /// command line).
    static let fastReader = ["--reader", "rules"]

    static let jsonKeys: Set<String> = [
        "file", "status", "reading", "values", "unit", "confidence", "glare", "display", "word", "message", "error", "warnings",
    ]

    /// empty.jpg, truncated.jpg, random.jpg, huge.png, blank.png in `folder`.
    func writeInputs(in folder: URL) throws {
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("empty.jpg").path, contents: Data())
        try Fixture.write(try Fixture.truncatedJPEG(), to: folder.appendingPathComponent("truncated.jpg"))
        try Fixture.write(Fixture.randomBytes(), to: folder.appendingPathComponent("random.jpg"))
        try Fixture.write(Fixture.pngDeclaring(width: 60000, height: 60000), to: folder.appendingPathComponent("huge.png"))
        try Fixture.write(try Fixture.blankPNG(), to: folder.appendingPathComponent("blank.png"))
    }

    // MARK: - batch

    func testBatchPrintsOneJSONLinePerInputInOrderWithClearErrors() throws {
        let folder = try makeTemporaryFolder()
        try writeInputs(in: folder)
        let inputs = ["empty.jpg", "truncated.jpg", "random.jpg", "huge.png", "missing.jpg", "blank.png"]
        let result = try CLI.run(["batch"] + inputs + ["--peripheral", "9", "--jobs", "3"] + Self.fastReader, in: folder)

        XCTAssertEqual(result.status, 1, "an unreadable image makes the exit status 1\n\(result.stderr)")
        XCTAssertEqual(result.lines.count, inputs.count, result.stdout)
        let objects = try result.lines.map { try jsonObject($0) }
        for (object, line) in zip(objects, result.lines) {
            XCTAssertEqual(Set(object.keys), Self.jsonKeys, "every key, always: \(line)")
        }
        XCTAssertEqual(objects.map { $0["file"] as? String }, inputs)
        XCTAssertEqual(objects.map { $0["status"] as? String }, ["error", "error", "error", "error", "error", "no-reading"])

        func error(_ i: Int) -> String { (objects[i]["error"] as? String) ?? "" }
        XCTAssertTrue(error(0).contains("empty"), error(0))
        XCTAssertTrue(error(1).lowercased().contains("truncated"), error(1))
        XCTAssertTrue(error(2).contains("not a JPEG, PNG, WebP or HEIF/HEIC image"), error(2))
        XCTAssertTrue(error(3).contains("60000x60000"), error(3))
        XCTAssertTrue(error(4).contains("no such file") && error(4).contains("missing.jpg"), error(4))
        for i in 0..<5 {
            XCTAssertTrue(objects[i]["reading"] is NSNull)
            XCTAssertEqual((objects[i]["values"] as? [Any])?.count, 0)
        }

        let blank = objects[5]
        XCTAssertTrue(blank["reading"] is NSNull)
        XCTAssertTrue(blank["error"] is NSNull)
        XCTAssertNotNil(blank["message"] as? String, "why nothing was read")

        // stderr lists each unreadable file with its problem.
        for name in inputs.prefix(5) { XCTAssertTrue(result.stderr.contains(name), result.stderr) }
        XCTAssertTrue(result.stderr.contains("5 of 6"), result.stderr)
    }

    /// A JPEG whose data ends before its image is an error; one whose scan only ends early at its end marker
    /// (a recoverable warning: viewers show it whole) is read, the warning in its result.
    func testARecoverableDecoderWarningIsAWarningAndACutShortFileAnError() throws {
        let folder = try makeTemporaryFolder()
        try Fixture.write(try Fixture.truncatedJPEG(), to: folder.appendingPathComponent("cut.jpg"))
        try Fixture.write(try Fixture.scanEndedEarlyJPEG(), to: folder.appendingPathComponent("ended-early.jpg"))
        let result = try CLI.run(["batch", "cut.jpg", "ended-early.jpg", "-p", "100"], in: folder)
        let objects = try result.lines.map { try jsonObject($0) }
        XCTAssertEqual(objects.map { $0["status"] as? String }, ["error", "no-reading"], result.stdout)
        XCTAssertEqual(objects[0]["error"] as? String, "truncated JPEG data (Premature end of JPEG file)")
        let warnings = (objects[1]["warnings"] as? [String]) ?? []
        XCTAssertTrue(warnings.contains { $0.contains("premature end of data segment") }, "\(warnings)")
        XCTAssertTrue(objects[1]["error"] is NSNull)
    }

    func testBatchExitsZeroWhenEveryImageWasProcessedEvenWithoutReadings() throws {
        let folder = try makeTemporaryFolder()
        try Fixture.write(try Fixture.blankPNG(), to: folder.appendingPathComponent("a.png"))
        try Fixture.write(try Fixture.blankPNG(width: 40, height: 30), to: folder.appendingPathComponent("b.png"))
        let result = try CLI.run(["batch", "a.png", "b.png", "-p", "100"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try result.lines.map { try jsonObject($0)["status"] as? String }, ["no-reading", "no-reading"])
        // No progress bar when stderr is not a terminal: only the summary.
        XCTAssertTrue(result.stderr.hasPrefix("vitalsnap batch: 2 images in "), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("images/s): 0 ok, 2 no-reading, 0 error\n"), result.stderr)
        let quiet = try CLI.run(["batch", "a.png", "b.png", "-p", "100", "--quiet"], in: folder)
        XCTAssertEqual(quiet.stdout, result.stdout)
        XCTAssertEqual(quiet.stderr, "")
    }

    func testBatchSearchesFoldersRecursivelyForImageFilesOnly() throws {
        let folder = try makeTemporaryFolder()
        let photos = folder.appendingPathComponent("photos/deeper")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Fixture.write(try Fixture.blankPNG(), to: folder.appendingPathComponent("photos/b.png"))
        try Fixture.write(try Fixture.blankPNG(), to: photos.appendingPathComponent("a.png"))
        try "not an image".write(to: folder.appendingPathComponent("photos/notes.txt"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["batch", "photos", "--peripheral", "9"] + Self.fastReader, in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try result.lines.map { try jsonObject($0)["file"] as? String }, ["photos/b.png", "photos/deeper/a.png"])
    }

    func testUnreadableFolderIsAnErrorEntryAndTheBatchGoesOn() throws {
        if getuid() == 0 { throw XCTSkip("root can read any folder") }
        let folder = try makeTemporaryFolder()
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try Fixture.write(try Fixture.blankPNG(), to: locked.appendingPathComponent("inside.png"))
        try Fixture.write(try Fixture.blankPNG(), to: folder.appendingPathComponent("blank.png"))
        XCTAssertEqual(chmod(locked.path, 0), 0)
        defer { chmod(locked.path, 0o755) }
        let result = try CLI.run(["batch", "locked", "blank.png", "--peripheral", "9"] + Self.fastReader, in: folder)
        XCTAssertEqual(result.status, 1)
        let objects = try result.lines.map { try jsonObject($0) }
        XCTAssertEqual(objects.map { $0["file"] as? String }, ["locked", "blank.png"])
        XCTAssertEqual(objects.map { $0["status"] as? String }, ["error", "no-reading"])
        let message = (objects[0]["error"] as? String) ?? ""
        XCTAssertTrue(message.contains("permission denied"), message)
    }

    func testBatchTSVHasAHeaderAndOneRowPerImage() throws {
        let folder = try makeTemporaryFolder()
        try writeInputs(in: folder)
        let inputs = ["blank.png", "empty.jpg", "missing.png"]
        let result = try CLI.run(["batch"] + inputs + ["--peripheral", "9", "--format", "tsv"] + Self.fastReader, in: folder)
        XCTAssertEqual(result.status, 1)
        let lines = result.lines
        XCTAssertEqual(lines.count, inputs.count + 1, result.stdout)
        XCTAssertEqual(lines.first, "file\tstatus\treading\tunit\tconfidence\tglare\tmessage")
        let rows = lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertTrue(rows.allSatisfy { $0.count == 7 }, result.stdout)
        XCTAssertEqual(rows.map { $0[0] }, inputs)
        XCTAssertEqual(rows.map { $0[1] }, ["no-reading", "error", "error"])
    }

    func testBatchTableIsReadable() throws {
        let folder = try makeTemporaryFolder()
        try writeInputs(in: folder)
        let result = try CLI.run(["batch", "blank.png", "random.jpg", "--peripheral", "9", "--format", "table"] + Self.fastReader, in: folder)
        XCTAssertEqual(result.status, 1)
        let lines = result.lines
        XCTAssertEqual(lines.count, 3, result.stdout)
        XCTAssertTrue(lines[0].hasPrefix("FILE"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("blank.png") && lines[1].contains("no-reading"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("random.jpg") && lines[2].contains("not a JPEG, PNG, WebP or HEIF/HEIC image"), lines[2])
    }

    func testUnknownPeripheralIsAUsageErrorListingTheKnownIDs() throws {
        let folder = try makeTemporaryFolder()
        let result = try CLI.run(["batch", "x.jpg", "--peripheral", "4242"], in: folder)
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("4242") && result.stderr.contains("known ids: 1, 2, 5, 6, 9, 100"), result.stderr)
    }

    func testBadOptionValuesAreUsageErrors() throws {
        let folder = try makeTemporaryFolder()
        let jobs = try CLI.run(["batch", "x.jpg", "--peripheral", "9", "--jobs", "0"], in: folder)
        XCTAssertEqual(jobs.status, 64)
        XCTAssertTrue(jobs.stderr.contains("--jobs"), jobs.stderr)
        let unit = try CLI.run(["batch", "x.jpg", "--peripheral", "2", "--unit", "mmol"], in: folder)
        XCTAssertEqual(unit.status, 64)
        XCTAssertTrue(unit.stderr.contains("does not show mmol"), unit.stderr)
        let format = try CLI.run(["batch", "x.jpg", "--peripheral", "9", "--format", "xml"], in: folder)
        XCTAssertEqual(format.status, 64)
    }

    // MARK: - peripherals

    func testPeripheralsJSONListsTheGenericIDs() throws {
        let folder = try makeTemporaryFolder()
        let result = try CLI.run(["peripherals", "--json"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let ids = Set(list.compactMap { $0["id"] as? Int })
        XCTAssertTrue(Set([1, 2, 5, 6, 9, 100]).isSubset(of: ids), "\(ids.sorted())")

        let table = try CLI.run(["peripherals"], in: folder)
        XCTAssertEqual(table.status, 0)
        XCTAssertTrue(table.stdout.hasPrefix("ID"), table.stdout)
        XCTAssertEqual(table.lines.count, list.count + 1)
    }

    // MARK: - eval

    /// blank.png labelled `?` (correct), the same labelled 123 (no reading), random bytes (error), a missing file
    /// (error).
    func writeLabelledFolder(_ folder: URL, peripheralColumn: Bool = true) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Fixture.write(try Fixture.blankPNG(), to: folder.appendingPathComponent("blank.png"))
        try Fixture.write(try Fixture.blankPNG(width: 40, height: 30), to: folder.appendingPathComponent("blank2.png"))
        try Fixture.write(Fixture.randomBytes(), to: folder.appendingPathComponent("random.jpg"))
        let rows = [("blank.png", "?"), ("blank2.png", "123"), ("random.jpg", "45"), ("missing.png", "7")]
        let text = (peripheralColumn ? "file\treading\tmatch\tperipheral\tunit\n" : "file\treading\tmatch\n")
            + rows.map { "\($0.0)\t\($0.1)\texact" + (peripheralColumn ? "\t9\tmg/dL" : "") }.joined(separator: "\n") + "\n"
        try text.write(to: folder.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)
    }

    func testEvalCountsAndJSONSummary() throws {
        let folder = try makeTemporaryFolder()
        try writeLabelledFolder(folder.appendingPathComponent("set"))

        let text = try CLI.run(["eval", "set"] + Self.fastReader, in: folder)
        XCTAssertEqual(text.status, 1, "unreadable labelled images make the exit status 1\n\(text.stderr)")
        XCTAssertTrue(text.stdout.contains("4 images"), text.stdout)
        for (label, n) in [("correct", 1), ("wrong", 0), ("no reading", 1), ("unreadable", 2)] {
            XCTAssertNotNil(text.stdout.range(of: "\(label) +\(n) ", options: .regularExpression), "\(label) \(n)\n\(text.stdout)")
        }
        XCTAssertTrue(text.stdout.contains("random.jpg") && text.stdout.contains("missing.png"), "the unreadable ones are listed")

        let json = try CLI.run(["eval", "set", "--json", "--jobs", "2"] + Self.fastReader, in: folder)
        XCTAssertEqual(json.status, 1)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        let total = try XCTUnwrap(summary["total"] as? [String: Any])
        XCTAssertEqual(total["total"] as? Int, 4)
        XCTAssertEqual(total["correct"] as? Int, 1)
        XCTAssertEqual(total["wrong"] as? Int, 0)
        XCTAssertEqual(total["noReading"] as? Int, 1)
        XCTAssertEqual(total["errors"] as? Int, 2)
        let folders = try XCTUnwrap(summary["folders"] as? [[String: Any]])
        XCTAssertEqual(folders.count, 1)
        XCTAssertEqual(folders[0]["peripherals"] as? [Int], [9])
        XCTAssertEqual((folders[0]["errorItems"] as? [[String: Any]])?.compactMap { $0["file"] as? String }, ["random.jpg", "missing.png"])
    }

    func testEvalNeedsAPeripheralWhenTheLabelsHaveNone() throws {
        let folder = try makeTemporaryFolder()
        try writeLabelledFolder(folder.appendingPathComponent("set"), peripheralColumn: false)
        let missing = try CLI.run(["eval", "set"], in: folder)
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.contains("--peripheral"), missing.stderr)

        let given = try CLI.run(["eval", "set", "--peripheral", "100", "--json"] + Self.fastReader, in: folder)
        XCTAssertEqual(given.status, 1)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(given.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((summary["total"] as? [String: Any])?["errors"] as? Int, 2)
        XCTAssertEqual((summary["folders"] as? [[String: Any]])?.first?["peripherals"] as? [Int], [100])
    }

    func testEvalOfAFolderAboveLabelledFoldersSummarizesEachAndTheTotal() throws {
        let folder = try makeTemporaryFolder()
        try writeLabelledFolder(folder.appendingPathComponent("sets/one"))
        try writeLabelledFolder(folder.appendingPathComponent("sets/nested/two"))
        let text = try CLI.run(["eval", "sets"] + Self.fastReader, in: folder)
        XCTAssertEqual(text.status, 1)
        let lines = text.lines
        XCTAssertTrue(lines.contains { $0.hasPrefix("one ") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("nested/two ") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("total") && $0.contains(" 8 ") }, text.stdout)

        let json = try CLI.run(["eval", "sets", "--json"] + Self.fastReader, in: folder)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let folders = try XCTUnwrap(summary["folders"] as? [[String: Any]])
        XCTAssertEqual(folders.compactMap { $0["folder"] as? String }, ["sets/nested/two", "sets/one"])
        XCTAssertEqual(folders.compactMap { $0["total"] as? Int }, [4, 4])
        let total = try XCTUnwrap(summary["total"] as? [String: Any])
        XCTAssertEqual(total["folders"] as? Int, 2)
        XCTAssertEqual(total["total"] as? Int, 8)
        XCTAssertEqual(total["correct"] as? Int, 2)
        XCTAssertEqual(total["errors"] as? Int, 4)
    }

    func testEvalOfAFolderWithoutLabelsIsAnError() throws {
        let folder = try makeTemporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let result = try CLI.run(["eval", "empty"], in: folder)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("labels.tsv"), result.stderr)
        let missing = try CLI.run(["eval", "nowhere"], in: folder)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no such folder"), missing.stderr)
    }

    // MARK: - help

    func testEveryCommandsHelpHasExamples() throws {
        let folder = try makeTemporaryFolder()
        let commands: [[String]] = [
            [], ["batch"], ["eval"], ["peripherals"], ["inspect"], ["samples"], ["samples", "generate"], ["overlays"],
            ["overlays", "render"],
        ]
        for command in commands {
            let result = try CLI.run(command + ["--help"], in: folder)
            XCTAssertEqual(result.status, 0, "\(command)")
            XCTAssertTrue(result.stdout.contains("Example"), "\(command): \(result.stdout)")
        }
        let root = try CLI.run(["--help"], in: folder)
        for name in ["batch", "eval", "peripherals", "inspect", "samples", "overlays"] {
            XCTAssertTrue(root.stdout.contains("  \(name) "), "root help lists \(name)")
        }
        XCTAssertTrue(root.stdout.contains("DEVELOPER SUBCOMMANDS"), root.stdout)
    }

    func testDeveloperCommandsNeedAnOutputFolderAwayFromTheRepository() throws {
        let folder = try makeTemporaryFolder()
        let samples = try CLI.run(["samples", "generate"], in: folder)
        XCTAssertEqual(samples.status, 64)
        XCTAssertTrue(samples.stderr.contains("--output"), samples.stderr)
        let overlays = try CLI.run(["overlays", "render"], in: folder)
        XCTAssertEqual(overlays.status, 64)
        XCTAssertTrue(overlays.stderr.contains("--output"), overlays.stderr)
    }

    func testOverlaysRenderWritesOnePNGPerPeripheral() throws {
        let folder = try makeTemporaryFolder()
        let result = try CLI.run(["overlays", "render", "--output", "out"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path)
        XCTAssertTrue(written.contains("009-glucose-meter.png"), "\(written)")
        XCTAssertEqual(result.lines.count, written.count)
    }
}
