import Foundation
import VitalSnapCore
import VitalSnapHealth
import XCTest

/// Exports from Tests/Fixtures/health/make-health-export.py, with the manifest of what it wrote: every element
/// read, each known malformation read anyway or stopped at, with exactly the records before the break.
final class GeneratedExportTests: XCTestCase {
    private let everything = Set(HealthSubscriptionSet.allCases.flatMap(\.identifiers))

    struct Manifest: Decodable {
        var records_by_type: [String: Int]
        var correlations_by_type: [String: Int]
        var elements: [String: Int]
        var top_level_records: Int
        var first_error: FirstError?

        struct FirstError: Decodable {
            var kind: String
            var line: Int?
            var records_before: Int
        }
    }

    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/health/make-health-export.py").path

    /// A small export (two days, thinned) with its manifest.
    private func generate(_ arguments: [String]) throws -> (path: String, manifest: Manifest) {
        let folder = try HealthFixture.folder(removedAfter: self)
        let out = folder.appendingPathComponent("export.zip").path
        let manifest = folder.appendingPathComponent("manifest.json").path
        try HealthFixture.python(
            "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
            [Self.generator, out, "--days", "2", "--density", "0.2", "--seed", "11", "--manifest", manifest] + arguments)
        return (out, try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: manifest))))
    }

    private func importing(_ path: String) throws -> HealthImportSummary {
        let queue = try UploadQueue(directory: DataDirectory(path: try HealthFixture.folder(removedAfter: self).appendingPathComponent("data").path))
        return try HealthImporter(queue: queue, owner: nil, subscribed: everything).run(HealthExportLocator.locate(path))
    }

    private func samplesRead(_ summary: HealthImportSummary, _ manifest: Manifest) -> Int {
        summary.elementsByType.filter { manifest.records_by_type[$0.key] != nil }.values.reduce(0, +)
    }

    func testEveryRecordCorrelationAndWorkoutOfAWellFormedExportIsRead() throws {
        let (path, manifest) = try generate([])
        let summary = try importing(path)
        XCTAssertNil(summary.error)
        XCTAssertEqual(summary.unreadable, 0)
        for (type, count) in manifest.records_by_type {
            XCTAssertEqual(summary.elementsByType[type], count, type)
        }
        for (type, count) in manifest.correlations_by_type {
            XCTAssertEqual(summary.elementsByType[type], count, type)
        }
        XCTAssertEqual(summary.elementsByType[HealthSubscriptionSet.workoutIdentifier], manifest.elements["Workout"])
        XCTAssertGreaterThan(summary.queued, 0)
    }

    func testTheBrokenDTDControlCharactersAndSpacedAttributeNamesAreReadAnyway() throws {
        for kind in ["dtd", "control-chars", "attribute-spaces"] {
            let (path, manifest) = try generate(["--malformed", kind])
            let summary = try importing(path)
            XCTAssertNil(summary.error, kind)
            XCTAssertEqual(samplesRead(summary, manifest), manifest.top_level_records, kind)
            if kind == "control-chars" { XCTAssertGreaterThan(summary.replacedCharacters, 0) }
        }
    }

    func testABrokenOrCutShortExportKeepsExactlyTheRecordsBeforeTheBreak() throws {
        for kind in ["broken-middle", "truncated"] {
            let (path, manifest) = try generate(["--malformed", kind])
            let summary = try importing(path)
            let firstError = try XCTUnwrap(manifest.first_error, kind)
            guard case .malformedXML(let line, _) = try XCTUnwrap(summary.error, kind) else {
                return XCTFail("\(kind): \(String(describing: summary.error))")
            }
            XCTAssertGreaterThanOrEqual(line, try XCTUnwrap(firstError.line, kind), kind)
            XCTAssertEqual(samplesRead(summary, manifest), firstError.records_before, kind)
        }
        let (path, _) = try generate(["--malformed", "truncated-zip"])
        let summary = try importing(path)
        guard case .truncatedZip = try XCTUnwrap(summary.error) else { return XCTFail("\(String(describing: summary.error))") }
        XCTAssertGreaterThan(summary.elements, 0)
    }
}
