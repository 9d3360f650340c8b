import Foundation
import VitalSnapImaging
import VitalSnapOCR
import XCTest
@testable import VitalSnapSamples

final class SampleSetWriterTests: XCTestCase {
    static let catalog = try! PeripheralCatalog.builtIn()

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testWritesFoldersWhoseLabelsMatchTheFiles() throws {
        let root = try temporaryFolder()
        var lines: [String] = []
        let summary = try SampleSetWriter.writeAll(to: root, catalog: Self.catalog, seed: 5, options: .tiny) { lines.append($0) }

        let expectedFolders = [
            "stills/glucose-g1", "stills/glucose-g2-mmol", "stills/bp-b3", "stills/thermometer-t1", "stills/scale-s1",
            "stills/oximeter-o1", "stills/glare-over-digits", "stills/words",
            "clips/settle-glucose-g1", "clips/alternate-glucose-g2-mmol", "clips/lo-glucose-g1", "clips/mgdl-glucose-g1",
        ]
        XCTAssertEqual(Set(summary.folders.keys), Set(expectedFolders))
        XCTAssertEqual(lines.count, expectedFolders.count)

        for folder in expectedFolders {
            let dir = root.appendingPathComponent(folder)
            let tsv = try String(contentsOf: dir.appendingPathComponent("labels.tsv"), encoding: .utf8)
            XCTAssert(tsv.hasPrefix("file\treading\tmatch\tdevice\tsource\tnotes\tperipheral\tunit\n"), folder)
            let rows = try XCTUnwrap(LabelRow.parse(tsv), folder)
            XCTAssertEqual(rows, summary.folders[folder])
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "labels.tsv" }
            XCTAssertEqual(Set(rows.map(\.file)), Set(files), "\(folder): rows and files agree")
            XCTAssertEqual(rows.count, files.count, "\(folder): one row per file")
            for row in rows {
                XCTAssertEqual(row.match, "exact")
                XCTAssert(row.source.hasPrefix("generated:seed="), row.source)
                XCTAssert((101...106).contains(row.peripheral))
                XCTAssertFalse(row.unit.isEmpty)
                // Every file decodes to an image.
                let bytes = try Data(contentsOf: dir.appendingPathComponent(row.file))
                XCTAssert(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.starts(with: [0xFF, 0xD8]), row.file)
                XCTAssertEqual(row.file.hasSuffix(".png"), bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), row.file)
            }
        }

        let g1 = try XCTUnwrap(summary.folders["stills/glucose-g1"])
        XCTAssertEqual(g1.map(\.file), ["glucose-g1-01.jpg", "glucose-g1-02.png"])
        XCTAssert(g1.allSatisfy { $0.device == "glucose meter (VitalSnap Samples Glucose G1)" && $0.unit == "mg/dL" && $0.peripheral == 101 })
        XCTAssert(try XCTUnwrap(summary.folders["stills/glare-over-digits"]).allSatisfy { $0.reading == "?" && $0.notes.contains("glare-over-digits=yes") })
        let words = try XCTUnwrap(summary.folders["stills/words"])
        XCTAssertEqual(words.map(\.reading), ["LO", "HI", "Err", "LO", "HI", "Err"])
        XCTAssertEqual(Set(words.map(\.unit)), ["mg/dL", "mmol/L"])
        XCTAssert(try XCTUnwrap(summary.folders["clips/lo-glucose-g1"]).allSatisfy { $0.reading == "LO" })
        let settle = try XCTUnwrap(summary.folders["clips/settle-glucose-g1"])
        XCTAssertEqual(settle.first?.file, "frame-0001.png")
        XCTAssertEqual(settle.count, 12)
        XCTAssertEqual(settle.prefix(4).map(\.reading), Array(repeating: "?", count: 4))
        XCTAssertEqual(Set(settle.dropFirst(4).map(\.reading)).count, 1, "settles on one reading")
        XCTAssertNotEqual(settle.last?.reading, "?")
        let alternate = try XCTUnwrap(summary.folders["clips/alternate-glucose-g2-mmol"])
        XCTAssertEqual(Set(alternate.map(\.reading)).count, 2)
        XCTAssertNotEqual(alternate[0].reading, alternate[3].reading)
        XCTAssertEqual(alternate[0].reading, alternate[6].reading)
    }

    func testTheSameSeedWritesTheSameBytes() throws {
        var options = SampleSetWriter.Options.tiny
        options.stillsPerDesign = 1
        let a = try temporaryFolder(), b = try temporaryFolder(), c = try temporaryFolder()
        try SampleSetWriter.writeAll(to: a, catalog: Self.catalog, seed: 9, options: options)
        try SampleSetWriter.writeAll(to: b, catalog: Self.catalog, seed: 9, options: options)
        try SampleSetWriter.writeAll(to: c, catalog: Self.catalog, seed: 10, options: options)
        let folder = "stills/bp-b3"
        let name = "bp-b3-01.jpg"
        let first = try Data(contentsOf: a.appendingPathComponent(folder).appendingPathComponent(name))
        XCTAssertEqual(first, try Data(contentsOf: b.appendingPathComponent(folder).appendingPathComponent(name)))
        XCTAssertNotEqual(first, try Data(contentsOf: c.appendingPathComponent(folder).appendingPathComponent(name)))
        for file in ["stills/words/labels.tsv", "clips/settle-glucose-g1/labels.tsv", "clips/settle-glucose-g1/frame-0003.png"] {
            XCTAssertEqual(try Data(contentsOf: a.appendingPathComponent(file)), try Data(contentsOf: b.appendingPathComponent(file)), file)
        }
    }

    func testEachStillCanBeRegeneratedFromItsSeed() throws {
        let root = try temporaryFolder()
        var options = SampleSetWriter.Options.tiny
        options.stillsPerDesign = 2
        let summary = try SampleSetWriter.writeAll(to: root, catalog: Self.catalog, seed: 6, options: options)
        let row = try XCTUnwrap(summary.folders["stills/scale-s1"]?[1])
        XCTAssert(row.file.hasSuffix(".png"))
        let seed = try XCTUnwrap(UInt64(row.source.dropFirst("generated:seed=".count)))
        let design = try XCTUnwrap(MeterDesign.builtIn(for: Self.catalog[105]!))
        let scene = SceneGenerator.randomStill(design, seed: seed, width: 160, height: 120, allowPortrait: true)
        let decoded = try Data(contentsOf: root.appendingPathComponent("stills/scale-s1").appendingPathComponent(row.file))
        XCTAssertEqual(Array(decoded), try ImageEncoder.png(scene.image))
        XCTAssertEqual(row.reading, scene.reading)
    }

    func testRewritingRemovesStaleImagesOnly() throws {
        let root = try temporaryFolder()
        var options = SampleSetWriter.Options.tiny
        options.stillsPerDesign = 1
        try SampleSetWriter.writeAll(to: root, catalog: Self.catalog, seed: 8, options: options)
        let folder = root.appendingPathComponent("stills/bp-b3")
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("bp-b3-07.jpg"))
        try Data("keep".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try SampleSetWriter.writeAll(to: root, catalog: Self.catalog, seed: 8, options: options)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        XCTAssertEqual(names, ["bp-b3-01.jpg", "labels.tsv", "notes.txt"])
    }

    func testTsvEscapesTabsAndRoundTrips() throws {
        let rows = [LabelRow(file: "a.jpg", reading: "5.6", device: "d", source: "generated:seed=1", notes: "x\ty", peripheral: 102, unit: "mmol/L")]
        let text = LabelRow.tsv(rows)
        XCTAssertEqual(text.split(separator: "\n").count, 2)
        let parsed = try XCTUnwrap(LabelRow.parse(text))
        XCTAssertEqual(parsed.first?.notes, "x y")
        XCTAssertNil(LabelRow.parse("wrong header\n"))
    }
}
