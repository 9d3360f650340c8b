import Foundation
import VitalSnapOCR
import XCTest
@testable import VitalSnapSamples

/// A family set: only that family's devices and displays, framed as a patient's photo, and a labels.tsv that
/// `vitalsnap eval` reads, whose readings are the scenes' own values (or `?` where none may be read).
final class TrainingFamilyTests: TemporaryFolderTestCase {
    func write(_ family: TrainingFamily, count: Int) throws -> (root: URL, summary: TrainingSetWriter.Summary) {
        let root = temporaryFolder("family-test")
        let options = TrainingSetWriter.Options(
            count: count, seed: 900_017, jobs: 2, writeLineCrops: false, parameters: TrainingSceneTests.small, family: family)
        return (root, try TrainingSetWriter.write(to: root, options: options))
    }

    func scenes(_ root: URL) throws -> [[String: Any]] {
        try String(contentsOf: root.appendingPathComponent("scenes.jsonl"), encoding: .utf8).split(separator: "\n")
            .map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    func testAFamilySetDrawsOnlyThatFamilyAsPhotos() throws {
        for family in TrainingFamily.allCases {
            let (root, _) = try write(family, count: 8)
            for scene in try scenes(root) {
                let style = try XCTUnwrap(scene["style"] as? [String: Any])
                XCTAssertEqual(style["device"] as? String, family.program.rawValue, family.rawValue)
                let framing = try XCTUnwrap(style["framing"] as? String)
                XCTAssertTrue(["room", "close-up", "display-crop"].contains(framing), "\(family): \(framing)")
                if let kinds = family.displayKinds {
                    let display = try XCTUnwrap(style["display"] as? String)
                    XCTAssertTrue(kinds.map(\.rawValue).contains(display), "\(family): \(display)")
                }
            }
        }
    }

    func testTheLabelsAreTheScenesOwnValuesForTheFamilysPeripheral() throws {
        let (root, summary) = try write(.bloodPressureLCD, count: 12)
        let labels = try LabelFile.load(root.appendingPathComponent("labels.tsv").path).labels
        XCTAssertEqual(labels.count, summary.labelled)
        XCTAssertEqual(labels.count, 12, "every scene of a family set shows its display")
        let scenes = try scenes(root)
        var valuesSeen = 0
        for label in labels {
            XCTAssertEqual(label.peripheral, 2)
            XCTAssertEqual(label.unit, "mmHg")
            let scene = try XCTUnwrap(scenes.first { $0["file"] as? String == label.file })
            let lines = try XCTUnwrap(scene["lines"] as? [[String: Any]]).filter { $0["role"] as? String == "value" }
            if label.reading == "?" || MatchRule.expectsNoValue(label.reading) { continue }
            let parts = label.reading.split(separator: "/").map(String.init)
            XCTAssertEqual(parts.count, 3, label.reading)
            for (field, text) in zip(["systolic", "diastolic", "pulse"], parts) {
                let line = try XCTUnwrap(lines.first { $0["field"] as? String == field }, "\(label.file) has no \(field)")
                XCTAssertEqual(line["text"] as? String, text)
                XCTAssertEqual(line["readable"] as? Bool, true)
            }
            valuesSeen += 1
        }
        XCTAssertGreaterThan(valuesSeen, 0, "some scenes are labelled with their values")
    }

    static func line(_ field: String?, _ text: String, readable: Bool = true, role: SceneTextRole = .value) -> TrainingLine {
        let p = Point(x: 0, y: 0)
        return TrainingLine(
            role: role, field: field, text: text, readable: readable,
            quad: LineQuad(topLeft: p, topRight: p, bottomRight: p, bottomLeft: p), digitHeight: 10, polarity: .darkOnLight)
    }

    func testAReadingIsQuestionedWhereAValueCannotBeRead() throws {
        let bpFields = try FamilyLabel.fields(of: .bloodPressureLCD)
        let bp = [Self.line("systolic", "120"), Self.line("diastolic", "80"), Self.line("pulse", "72")]
        XCTAssertEqual(FamilyLabel.reading(bp, fields: bpFields), "120/80/72")
        XCTAssertEqual(FamilyLabel.reading(Array(bp.reversed()), fields: bpFields), "120/80/72", "in the peripheral's order")
        XCTAssertEqual(FamilyLabel.reading(Array(bp.prefix(2)), fields: bpFields), "?", "a field the layout lacks")
        var hidden = bp
        hidden[2].readable = false
        XCTAssertEqual(FamilyLabel.reading(hidden, fields: bpFields), "?", "a value hidden by glare or the frame")
        XCTAssertEqual(FamilyLabel.reading([Self.line("bloodGlucose", "Lo")], fields: try FamilyLabel.fields(of: .glucose)), "LO", "the word shown")
        XCTAssertEqual(FamilyLabel.reading([Self.line("bloodGlucose", "E1")], fields: try FamilyLabel.fields(of: .glucose)), "?", "an error code is no value")
        XCTAssertEqual(FamilyLabel.reading([Self.line("spo2", "97"), Self.line("pulse", "64")], fields: try FamilyLabel.fields(of: .oximeter)), "97/64")
    }
}
