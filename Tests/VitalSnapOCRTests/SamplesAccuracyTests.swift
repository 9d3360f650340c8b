import Foundation
import Testing
@testable import VitalSnapOCR

/// The committed models on the project's own samples: no wrong reading, and at least as many right ones as the
/// code reached when the floors were set, so accuracy cannot fall without a test failing.
@Suite(.serialized) struct SamplesAccuracyTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Samples")
    /// Correct readings (of 120 stills, of 36 clip frames) the models reached on 2026-11-23, less a reading or
    /// two of margin for a future retraining that is as good.
    static let stillsFloor = 118
    static let clipFramesFloor = 20

    func evaluate(_ folder: String) throws -> Evaluation.Counts {
        let root = Self.samples.appendingPathComponent(folder).standardizedFileURL.path
        let catalog = try PeripheralCatalog.builtIn()
        var tasks: [Evaluation.Task] = []
        for dir in Evaluation.labelledFolders(under: root) {
            let path = (dir as NSString).appendingPathComponent("labels.tsv")
            let labels = try LabelFile.load(path)
            let settings = try Evaluation.settings(for: labels, labelsPath: path, catalog: catalog, peripheral: nil, unit: nil)
            tasks.append(Evaluation.Task(folder: dir, labels: labels, settings: settings))
        }
        let evaluations = Evaluation.run(tasks, jobs: 2, reader: .model(try ReaderModels.bundled()))
        for e in evaluations {
            for item in e.items where item.verdict == .wrong {
                Issue.record("\(e.folder)/\(item.file): read \(item.read ?? "-") where the label is \(item.label)")
            }
        }
        return evaluations.reduce(Evaluation.Counts()) { $0 + $1.counts }
    }

    @Test func stillsAreReadWithoutAWrongReadingAndAboveTheFloor() throws {
        let counts = try evaluate("stills")
        #expect(counts.total == 120)
        #expect(counts.wrong == 0)
        #expect(counts.errors == 0)
        #expect(counts.correct >= Self.stillsFloor, "\(counts.correct) of \(counts.total) correct")
    }

    @Test func clipFramesAreReadWithoutAWrongReadingAndAboveTheFloor() throws {
        let counts = try evaluate("clips")
        #expect(counts.wrong == 0)
        #expect(counts.correct >= Self.clipFramesFloor, "\(counts.correct) of \(counts.total) correct")
    }
}
