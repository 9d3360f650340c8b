import Foundation
import XCTest

/// The options of issue 10 on the command line: the training-set generator, `--reader` and `eval --split`.
final class ReaderCLITests: XCTestCase {
    func testTrainingSetWritesScenesAndCropsAndRefusesAFolderInUse() throws {
        let folder = try makeTemporaryFolder()
        let help = try CLI.run(["samples", "training-set", "--help"], in: folder)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("Example"), help.stdout)

        let made = try CLI.run(["samples", "training-set", "--count", "3", "--seed", "4", "--jobs", "1", "out"], in: folder)
        XCTAssertEqual(made.status, 0, made.stderr)
        let scenes = try String(contentsOf: folder.appendingPathComponent("out/scenes.jsonl"), encoding: .utf8)
        XCTAssertEqual(scenes.split(separator: "\n").count, 3)
        let lines = try String(contentsOf: folder.appendingPathComponent("out/lines.tsv"), encoding: .utf8)
        XCTAssertTrue(lines.hasPrefix("file\ttext\trole\tscene\n"), lines)

        let again = try CLI.run(["samples", "training-set", "--count", "3", "--seed", "4", "out"], in: folder)
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("--force"), again.stderr)
        let forced = try CLI.run(["samples", "training-set", "--count", "2", "--seed", "4", "--force", "--jobs", "1", "out"], in: folder)
        XCTAssertEqual(forced.status, 0, forced.stderr)
        let replaced = try String(contentsOf: folder.appendingPathComponent("out/scenes.jsonl"), encoding: .utf8)
        XCTAssertEqual(replaced.split(separator: "\n").count, 2)
    }

    /// A folder named like a split one, four blank images, two of them held.
    func writeSplitFolder(in folder: URL) throws {
        let set = folder.appendingPathComponent("fuel-pump")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        var labels = "file\treading\tmatch\n"
        var split = "folder\tfile\thalf\n"
        for (i, half) in ["held", "train", "held", "train"].enumerated() {
            try Fixture.write(try Fixture.blankPNG(), to: set.appendingPathComponent("b\(i).png"))
            labels += "b\(i).png\t?\texact\n"
            split += "fuel-pump\tb\(i).png\t\(half)\n"
        }
        try labels.write(to: set.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)
        try split.write(to: folder.appendingPathComponent("split.tsv"), atomically: true, encoding: .utf8)
    }

    func testEvalSplitReadsOnlyTheHalfAskedFor() throws {
        let folder = try makeTemporaryFolder()
        try writeSplitFolder(in: folder)
        for (split, count) in [("held", 2), ("train", 2), ("all", 4)] {
            let result = try CLI.run(
                ["eval", "fuel-pump", "-p", "100", "--split", split, "--split-file", "split.tsv", "--json", "--reader", "rules"], in: folder)
            XCTAssertEqual(result.status, 0, result.stderr)
            let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            XCTAssertEqual((summary["total"] as? [String: Any])?["total"] as? Int, count, split)
            XCTAssertEqual(summary["split"] as? String, split)
            XCTAssertEqual(summary["reader"] as? String, "rules")
        }
        let missing = try CLI.run(["eval", "fuel-pump", "-p", "100", "--split", "held", "--split-file", "nowhere.tsv"], in: folder)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("--split-file"), missing.stderr)
    }

    func testReaderOptionNamesTheReaderAndRefusesUnknownOnes() throws {
        let folder = try makeTemporaryFolder()
        try writeSplitFolder(in: folder)
        let model = try CLI.run(["eval", "fuel-pump", "-p", "100", "--reader", "model"], in: folder)
        XCTAssertEqual(model.status, 0, model.stderr)
        XCTAssertTrue(model.stdout.hasPrefix("reader: model"), model.stdout)
        let unknown = try CLI.run(["eval", "fuel-pump", "-p", "100", "--reader", "magic"], in: folder)
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("rules"), unknown.stderr)
    }

    /// A sample still rendered upside down: the trained reader stands it upright and says so; with the developer
    /// option `--no-orienter` it reads the photo as it is.
    func testTheModelReaderStandsUpAnUpsideDownPhotoUnlessToldNotTo() throws {
        let folder = try makeTemporaryFolder()
        let still = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/glucose-g1/glucose-g1-09.jpg").standardizedFileURL.path
        let turned = try CLI.run(["batch", still, "-p", "101", "--reader", "model"], in: folder)
        XCTAssertEqual(turned.status, 0, turned.stderr)
        XCTAssertTrue(turned.stdout.contains("read turned: the photo was upside down"), turned.stdout)
        XCTAssertTrue(turned.stdout.contains("\"reading\":\"115\""), turned.stdout)
        let asIs = try CLI.run(["batch", still, "-p", "101", "--reader", "model", "--no-orienter"], in: folder)
        XCTAssertEqual(asIs.status, 0, asIs.stderr)
        XCTAssertFalse(asIs.stdout.contains("read turned"), asIs.stdout)
    }

    /// `eval --match litres` compares every row within one of its label: a still showing 7.3 labelled 8 is wrong
    /// by the folder's exact rule and right by litres; one labelled 9 is wrong by both.
    func testEvalMatchComparesEveryRowByTheRuleGiven() throws {
        let folder = try makeTemporaryFolder()
        let set = folder.appendingPathComponent("set")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        let still = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/glucose-g2-mmol/glucose-g2-mmol-02.jpg").standardizedFileURL
        try FileManager.default.copyItem(at: still, to: set.appendingPathComponent("near.jpg"))
        try FileManager.default.copyItem(at: still, to: set.appendingPathComponent("far.jpg"))
        try "file\treading\tmatch\tperipheral\tunit\nnear.jpg\t8\texact\t102\tmmol/L\nfar.jpg\t9\texact\t102\tmmol/L\n"
            .write(to: set.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)
        func counts(_ arguments: [String]) throws -> (correct: Int?, wrong: Int?) {
            let result = try CLI.run(["eval", "set", "--json"] + arguments, in: folder)
            XCTAssertEqual(result.status, 0, result.stderr)
            let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let total = summary["total"] as? [String: Any]
            return (total?["correct"] as? Int, total?["wrong"] as? Int)
        }
        let asLabelled = try counts([])
        XCTAssertEqual(asLabelled.correct, 0)
        XCTAssertEqual(asLabelled.wrong, 2)
        let litres = try counts(["--match", "litres"])
        XCTAssertEqual(litres.correct, 1)
        XCTAssertEqual(litres.wrong, 1)
        let text = try CLI.run(["eval", "set", "--match", "litres"], in: folder)
        XCTAssertTrue(text.stdout.contains("compared by the litres rule"), text.stdout)
        let unknown = try CLI.run(["eval", "set", "--match", "roughly"], in: folder)
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("litres"), unknown.stderr)
    }
}
