import Foundation
import VitalSnapImaging
import VitalSnapOCR
import XCTest
@testable import VitalSnapSamples

/// The training-set writer: byte-identical output whatever the number of jobs, the files and lists it writes,
/// the JSON format, the crops, and refusing to write into a folder that is not empty.
final class TrainingSetWriterTests: TemporaryFolderTestCase {
    func options(count: Int, jobs: Int, seed: UInt64 = 17) -> TrainingSetWriter.Options {
        TrainingSetWriter.Options(count: count, seed: seed, jobs: jobs, parameters: TrainingSceneTests.small)
    }

    /// Every file under `root`, relative path to bytes.
    func contents(_ root: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)!
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root.appendingPathComponent(path)
            _ = FileManager.default.fileExists(atPath: full.path, isDirectory: &isDirectory)
            if !isDirectory.boolValue { out[path] = try Data(contentsOf: full) }
        }
        return out
    }

    func testOneJobAndTwoJobsWriteTheSameBytes() throws {
        let a = temporaryFolder(), b = temporaryFolder()
        let summaryA = try TrainingSetWriter.write(to: a, options: options(count: 10, jobs: 1))
        let summaryB = try TrainingSetWriter.write(to: b, options: options(count: 10, jobs: 2))
        XCTAssertEqual(summaryA, summaryB)
        let filesA = try contents(a), filesB = try contents(b)
        XCTAssertEqual(Set(filesA.keys), Set(filesB.keys))
        for (name, data) in filesA { XCTAssertEqual(data, filesB[name], name) }
        XCTAssertEqual(summaryA.scenes, 10)
        XCTAssertEqual(filesA.keys.filter { $0.hasPrefix("scenes/") }.count, 10)
        // Another seed, other pictures.
        let c = temporaryFolder()
        _ = try TrainingSetWriter.write(to: c, options: options(count: 2, jobs: 1, seed: 18))
        XCTAssertNotEqual(try contents(c)["scenes/000000.jpg"], filesA["scenes/000000.jpg"])
    }

    func testScenesJsonlIsOneParseableObjectPerSceneWithTheDocumentedKeys() throws {
        let root = temporaryFolder()
        _ = try TrainingSetWriter.write(to: root, options: options(count: 12, jobs: 2))
        let text = try String(contentsOf: root.appendingPathComponent("scenes.jsonl"), encoding: .utf8)
        let rows = text.split(separator: "\n")
        XCTAssertEqual(rows.count, 12)
        for (i, row) in rows.enumerated() {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any])
            XCTAssertEqual(Set(object.keys), ["file", "width", "height", "quarter_turns", "lines", "display", "style"])
            XCTAssertEqual(object["file"] as? String, String(format: "scenes/%06d.jpg", i))
            let width = try XCTUnwrap(object["width"] as? Int), height = try XCTUnwrap(object["height"] as? Int)
            // The size is the JPEG's.
            let decoded = try ImageDecoder.decode(contentsOf: root.appendingPathComponent(object["file"] as! String).path).image
            XCTAssertEqual(decoded.width, width)
            XCTAssertEqual(decoded.height, height)
            XCTAssert([0, 1, 2, 3].contains(object["quarter_turns"] as? Int ?? -1))
            XCTAssert(object["display"] is NSNull || (object["display"] as? [[Double]])?.count == 4)
            XCTAssertNotNil(object["style"] as? [String: Any])
            for line in try XCTUnwrap(object["lines"] as? [[String: Any]]) {
                let keys = Set(line.keys)
                XCTAssert(keys == ["role", "text", "readable", "quad", "digit_height", "polarity"] || keys == ["role", "field", "text", "readable", "quad", "digit_height", "polarity"], "\(keys)")
                XCTAssertNotNil(SceneTextRole(rawValue: line["role"] as? String ?? ""))
                XCTAssertNotNil(line["readable"] as? Bool)
                XCTAssertEqual((line["quad"] as? [[Double]])?.count, 4)
                XCTAssert(["dark-on-light", "light-on-dark"].contains(line["polarity"] as? String ?? ""))
            }
        }
    }

    func testCropsAre32RowsHighAndListedWithTheirTexts() throws {
        let root = temporaryFolder()
        let summary = try TrainingSetWriter.write(to: root, options: options(count: 24, jobs: 2))
        let tsv = try String(contentsOf: root.appendingPathComponent("lines.tsv"), encoding: .utf8)
        var rows = tsv.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(rows.removeFirst(), ["file", "text", "role", "scene"])
        rows.removeLast()  // after the final newline
        XCTAssertEqual(rows.count, summary.crops)
        XCTAssertGreaterThan(summary.crops, 10)
        var empty = 0
        for row in rows {
            XCTAssertEqual(row.count, 4)
            let crop = try ImageDecoder.decode(contentsOf: root.appendingPathComponent(row[0]).path).image
            XCTAssertEqual(crop.height, 32, row[0])
            XCTAssertEqual(crop.width % 4, 0, row[0])
            XCTAssert((16...512).contains(crop.width), row[0])
            XCTAssert(FileManager.default.fileExists(atPath: root.appendingPathComponent(row[3]).path))
            if row[1].isEmpty {
                empty += 1
                XCTAssert(["unit", "icon", "background"].contains(row[2]), row[2])
            } else {
                XCTAssert(["value", "clock", "date", "memory"].contains(row[2]), row[2])
                XCTAssert(RecognizerAlphabet.contains(row[1]), row[1])
            }
        }
        XCTAssertGreaterThan(empty, 0, "empty-text crops")
        XCTAssertEqual(empty, summary.emptyCrops)
    }

    /// Each planned crop is cut with the formula's width; the texts are those of readable reading lines.
    func testPlannedCropsHaveTheFormulasWidthAndReadableTexts() {
        let p = TrainingSceneTests.small
        var cropper = LineCropper()
        var planned = 0
        for i in 0..<16 {
            let scene = TrainingSceneRenderer.render(seed: 9, index: i, parameters: p)
            let grey = GrayImage(width: scene.width, height: scene.height)
            var random = SampleRandom(seed: UInt64(i))
            let readableTexts = Set(scene.lines.filter { $0.role.isReading && $0.readable }.map(\.text))
            for plan in LineCropPlanner.plan(scene, parameters: p, random: &random) {
                let (crop, map) = cropper.crop(grey, quad: plan.quad)
                XCTAssertEqual(crop.height, 32)
                XCTAssertEqual(crop.width, LineCropper.width(for: plan.quad))
                XCTAssertEqual(map, LineCropper.cropToImage(plan.quad))
                if !plan.text.isEmpty { XCTAssert(readableTexts.contains(plan.text), plan.text) }
                planned += 1
            }
        }
        XCTAssertGreaterThan(planned, 8)
    }

    func testNoLinesWritesScenesOnly() throws {
        let root = temporaryFolder()
        var o = options(count: 3, jobs: 1)
        o.writeLineCrops = false
        let summary = try TrainingSetWriter.write(to: root, options: o)
        XCTAssertEqual(summary.crops, 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        XCTAssertEqual(names, ["scenes", "scenes.jsonl"])
    }

    func testRefusesAFolderThatIsNotEmptyUnlessForced() throws {
        let root = temporaryFolder()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: root.appendingPathComponent("notes.txt"))
        XCTAssertThrowsError(try TrainingSetWriter.write(to: root, options: options(count: 2, jobs: 1))) { error in
            XCTAssert(String(describing: error).contains("not an empty folder"), "\(error)")
        }
        // Forced: an earlier, larger set's files are replaced; other files stay.
        var o = options(count: 4, jobs: 1)
        o.force = true
        _ = try TrainingSetWriter.write(to: root, options: o)
        o.count = 2
        _ = try TrainingSetWriter.write(to: root, options: o)
        let scenes = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("scenes").path)
        XCTAssertEqual(scenes.sorted(), ["000000.jpg", "000001.jpg"])
        XCTAssert(FileManager.default.fileExists(atPath: root.appendingPathComponent("notes.txt").path))
        // An empty folder is fine without --force.
        let emptyFolder = temporaryFolder()
        try FileManager.default.createDirectory(at: emptyFolder, withIntermediateDirectories: true)
        XCTAssertNoThrow(try TrainingSetWriter.write(to: emptyFolder, options: options(count: 1, jobs: 1)))
    }
}
