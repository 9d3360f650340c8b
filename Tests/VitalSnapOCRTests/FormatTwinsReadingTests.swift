import Foundation
import Testing
@testable import VitalSnapOCR

/// Every WebP and HEIC photo of `Samples/formats` reads as its JPEG or PNG twin does (the `twin` column of
/// its labels.tsv; `Scripts/make-format-samples.py` makes them from the project's own stills).
@Suite struct FormatTwinsReadingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Samples/formats").standardizedFileURL.path

    /// file name → twin's file name, for the rows that have one.
    func twins() throws -> [String: String] {
        let text = try String(contentsOfFile: Self.folder + "/labels.tsv", encoding: .utf8)
        var rows = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = rows.removeFirst()
        let file = try #require(header.firstIndex(of: "file")), twin = try #require(header.firstIndex(of: "twin"))
        return Dictionary(uniqueKeysWithValues: rows.filter { !$0[twin].isEmpty }.map { ($0[file], $0[twin]) })
    }

    @Test(arguments: [ReaderChoice.Kind.model, .rules])
    func everyFormatReadsAsItsTwin(reader kind: ReaderChoice.Kind) throws {
        let path = Self.folder + "/labels.tsv"
        let labels = try LabelFile.load(path)
        let settings = try Evaluation.settings(
            for: labels, labelsPath: path, catalog: try PeripheralCatalog.builtIn(), peripheral: nil, unit: nil)
        let evaluation = try #require(Evaluation.run(
            [Evaluation.Task(folder: Self.folder, labels: labels, settings: settings)], jobs: 2,
            reader: try ReaderChoice.make(kind)).first)
        let items = Dictionary(uniqueKeysWithValues: evaluation.items.map { ($0.file, $0) })
        let twins = try twins()
        #expect(twins.count >= 9)
        for (file, twin) in twins.sorted(by: { $0.key < $1.key }) {
            let item = try #require(items[file]), reference = try #require(items[twin])
            #expect(item.verdict != .error, "\(file): \(item.message ?? "")")
            #expect(item.read == reference.read, "\(file) read \(item.read ?? "-"), its twin \(twin) \(reference.read ?? "-")")
            #expect(item.verdict == reference.verdict, "\(file): \(item.verdict), its twin: \(reference.verdict)")
        }
        if kind == .model {
            // Not only alike: the committed models read every one of them (release build, 2026-11-26).
            #expect(evaluation.counts.correct == evaluation.items.count, "\(evaluation.counts)")
        }
    }
}
