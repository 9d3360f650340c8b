import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `batch` as a Unix filter: paths from standard input or a file, stable shards, and resuming after a kill.
final class BatchFilterTests: XCTestCase {
    /// `count` small blank PNGs (read in milliseconds) named 000.png, 001.png, ... in `folder/photos`.
    func photos(_ count: Int, in folder: URL) throws -> [String] {
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let png = try Fixture.blankPNG()
        return try (0..<count).map { i in
            let name = String(format: "photos/%03d.png", i)
            try Fixture.write(png, to: folder.appendingPathComponent(name))
            return name
        }
    }

    func files(_ output: String) throws -> [String] {
        try output.split(separator: "\n").map { try XCTUnwrap(jsonObject(String($0))["file"] as? String) }
    }

    /// Complete lines in a results file so far (none while it does not exist).
    func resultCount(in file: URL) -> Int {
        ((try? Data(contentsOf: file)) ?? Data()).reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    func testPathsFromStandardInputComeAfterTheArgumentsInTheirOrder() throws {
        let folder = try makeTemporaryFolder()
        let names = try photos(6, in: folder)
        let listed = [names[4], "", names[1], "missing.png", names[5] + "\r"]  // a blank line, a missing file, CRLF
        let result = try CLI.run(
            ["batch", names[0], "--paths-from", "-", "-p", "100", "--reader", "rules", "--jobs", "3", "-q"], in: folder,
            input: listed.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 1, "the missing file is an error\n\(result.stderr)")
        XCTAssertEqual(try files(result.stdout), [names[0], names[4], names[1], "missing.png", names[5]])
        XCTAssertTrue(result.stderr.contains("missing.png: no such file or folder"), result.stderr)

        // The same list from a file; a folder listed there is searched like one given as an argument.
        try Data("photos\n".utf8).write(to: folder.appendingPathComponent("list.txt"))
        let fromFile = try CLI.run(["batch", "--paths-from", "list.txt", "-p", "100", "--reader", "rules", "-q"], in: folder)
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        XCTAssertEqual(try files(fromFile.stdout), names)
    }

    func testPathsFromNeedsAReadableList() throws {
        let folder = try makeTemporaryFolder()
        let missing = try CLI.run(["batch", "--paths-from", "nope.txt", "-p", "100"], in: folder)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("cannot read the list of paths nope.txt: No such file or directory"), missing.stderr)
        let nothing = try CLI.run(["batch", "-p", "100"], in: folder)
        XCTAssertEqual(nothing.status, 64)
        XCTAssertTrue(nothing.stderr.contains("--paths-from"), nothing.stderr)
        let empty = try CLI.run(["batch", "--paths-from", "-", "-p", "100", "-q"], in: folder, input: "")
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.contains("no image files"), empty.stderr)
    }

    func testShardsSplitTheInputsOnceWhateverTheirOrder() throws {
        let folder = try makeTemporaryFolder()
        let names = try photos(24, in: folder)
        var seen: [String] = []
        for k in 1...3 {
            let shard = try CLI.run(["batch", "photos", "-p", "100", "--reader", "rules", "--shard", "\(k)/3", "-q"], in: folder)
            XCTAssertEqual(shard.status, 0, shard.stderr)
            let taken = try files(shard.stdout).map { String($0.dropFirst("photos/".count)) }
            XCTAssertFalse(taken.isEmpty, "shard \(k) of 3 took none of 24")
            XCTAssertEqual(taken, taken.sorted(), "a shard keeps the input order")
            let dryRun = try CLI.run(["batch", "photos", "-p", "100", "--shard", "\(k)/3", "--dry-run"], in: folder)
            XCTAssertEqual(dryRun.lines, try files(shard.stdout), "--dry-run lists what the shard reads")
            // The same paths given in reverse order through a list: the same shard.
            let reversed = try CLI.run(
                ["batch", "--paths-from", "-", "-p", "100", "--reader", "rules", "--shard", "\(k)/3", "-q"], in: folder,
                input: names.reversed().joined(separator: "\n"))
            XCTAssertEqual(Set(try files(reversed.stdout).map { String($0.dropFirst("photos/".count)) }), Set(taken))
            seen += taken
        }
        XCTAssertEqual(seen.sorted(), names.map { String($0.dropFirst("photos/".count)) }, "every input in exactly one shard")
        let bad = try CLI.run(["batch", "photos", "-p", "100", "--shard", "0/3"], in: folder)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("K runs from 1 to 3"), bad.stderr)
    }

    func testResumeSkipsWhatIsDoneAndCutsAnUnfinishedLastLine() throws {
        let folder = try makeTemporaryFolder()
        let names = try photos(4, in: folder)
        let out = folder.appendingPathComponent("out.jsonl")
        let done = #"{"file":"photos/001.png","status":"no-reading"}"#
        try Data((done + "\n" + #"{"file":"photos/002.png","sta"#).utf8).write(to: out)
        let result = try CLI.run(["batch", "photos", "-p", "100", "--reader", "rules", "--resume", "out.jsonl"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "", "results go to the resume file")
        XCTAssertTrue(result.stderr.contains("appended to out.jsonl, 1 skipped as already there"), result.stderr)
        let text = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix(done + "\n"), text)
        XCTAssertEqual(try files(text), [names[1], names[0], names[2], names[3]])
        let tsv = try CLI.run(["batch", "photos", "-p", "100", "--resume", "out.jsonl", "--format", "tsv"], in: folder)
        XCTAssertEqual(tsv.status, 64)
    }

    /// A full disk (here /dev/full as standard output) stops the run at the first result it cannot write, with
    /// an error that says so, rather than reading on and losing the results silently.
    func testAFullDiskStopsTheRunWithAClearError() throws {
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found") }
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { throw XCTSkip("this system has no /dev/full") }
        let folder = try makeTemporaryFolder()
        _ = try photos(30, in: folder)
        let errors = folder.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["batch", "photos", "-p", "100", "--reader", "rules", "--jobs", "2"]
        process.currentDirectoryURL = folder
        process.standardOutput = full
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 1, stderr)
        XCTAssertTrue(
            stderr.contains("cannot write to standard output: No space left on device; the first 0 results were written"), stderr)
        XCTAssertFalse(stderr.contains("vitalsnap batch: "), "no summary of a run that could not write its results")
    }

    /// The issue's target: killed at random moments (SIGKILL, at least 10 times while reading), then run to
    /// the end with the same command, every input is in the output exactly once.
    /// A producer that sends the next path only once the last one's result is out (a conversation over pipes)
    /// gets each result while batch is still waiting for more paths.
    func testEachResultComesOutWhileTheNextPathIsAwaited() throws {
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found") }
        let folder = try makeTemporaryFolder()
        let names = try photos(3, in: folder)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["batch", "--paths-from", "-", "-p", "100", "--jobs", "2", "--reader", "rules", "-q"]
        process.currentDirectoryURL = folder
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // A batch that holds results back until more paths come would block this test: it is stopped instead.
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { process.terminate() } }
        var received = Data()
        for name in names {
            input.fileHandleForWriting.write(Data((name + "\n").utf8))
            // The result of this path before any further path is sent.
            while !String(decoding: received, as: UTF8.self).contains("\"\(name)\"") {
                let chunk = output.fileHandleForReading.availableData
                XCTAssertFalse(chunk.isEmpty, "batch ended before the result of \(name)")
                if chunk.isEmpty { return }
                received += chunk
            }
        }
        try input.fileHandleForWriting.close()
        received += output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(try files(String(decoding: received, as: UTF8.self)), names)
    }

    func testResumeAfterRandomKillsHasEveryInputExactlyOnce() throws {
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found") }
        let folder = try makeTemporaryFolder()
        let names = try photos(200, in: folder)
        let arguments = ["batch", "photos", "-p", "100", "--jobs", "2", "--reader", "rules", "--resume", "out.jsonl", "-q"]
        var generator = SystemRandomNumberGenerator()
        let output = folder.appendingPathComponent("out.jsonl")
        var kills = 0, attempts = 0
        while kills < 10 && attempts < 60 {
            attempts += 1
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // A random moment while it reads: one run in four during start-up, before its first result; the
            // others after 1 to 8 more results and a random fraction of the next. Waiting on results, not on
            // the clock, lets ten kills fall before the inputs run out on a fast machine and a slow one alike.
            if Int.random(in: 0..<4, using: &generator) == 0 {
                usleep(UInt32.random(in: 0...300_000, using: &generator))
            } else {
                let target = resultCount(in: output) + Int.random(in: 1...8, using: &generator)
                let deadline = Date().addingTimeInterval(60)
                while process.isRunning && resultCount(in: output) < target && Date() < deadline { usleep(2_000) }
                usleep(UInt32.random(in: 0...20_000, using: &generator))
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
        }
        XCTAssertGreaterThanOrEqual(kills, 10, "the runs ended before they could be killed")
        // The killed runs had written some results, and not all: the kills fell while reading.
        let before = (try? String(contentsOf: folder.appendingPathComponent("out.jsonl"), encoding: .utf8)) ?? ""
        let partial = before.split(separator: "\n").count
        XCTAssertTrue((1..<names.count).contains(partial), "\(partial) results after \(kills) kills")
        let last = try CLI.run(arguments, in: folder)
        XCTAssertEqual(last.status, 0, last.stderr)
        let lines = try String(contentsOf: folder.appendingPathComponent("out.jsonl"), encoding: .utf8)
        let read = try files(lines)
        XCTAssertEqual(read.count, names.count, "\(kills) kills")
        XCTAssertEqual(Set(read).count, read.count, "an input appears twice")
        XCTAssertEqual(Set(read), Set(names))
    }
}
