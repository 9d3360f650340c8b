import ArgumentParser
import Foundation
import VitalSnapOCR

struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure accuracy on a folder of labelled photos.",
        discussion: """
            Reads DIR/labels.tsv (tab-separated: file, reading, match, ...; match is exact, integer or digits), \
            reads every listed image and prints how many were read correctly, wrongly, or not at all, then \
            the wrong ones. A label of `?` means the digits are hidden and no value should be read; a label \
            `LO`, `HI` or `Err` means the display shows that word. When the labels have a `peripheral` \
            column, --peripheral may be left out.

            Examples:
              vitalsnap eval ../shared/data/photos/glucose-morepen --peripheral 9
              vitalsnap eval Samples/stills/glucose-g2-mmol --peripheral 9 --unit mmol --json
            """
    )

    @Argument(help: "Folder holding labels.tsv and the images.") var folder: String
    @Option(name: .shortAndLong, help: "OCR peripheral id (default: the labels' peripheral column).") var peripheral: Int?
    @Option(help: "Unit the display shows (default: the labels' unit column, else the field's default).") var unit: String?
    @Option(name: .shortAndLong, help: "Photos read at once (default: all cores).") var jobs: Int?
    @Flag(help: "Print a JSON summary instead of text.") var json = false
    @Flag(name: .shortAndLong, help: "List every image, not only the wrong ones.") var verbose = false

    func run() throws {
        let labelsPath = (folder as NSString).appendingPathComponent("labels.tsv")
        let labels = try LabelFile.load(labelsPath)
        guard let id = peripheral ?? labels.labels.first?.peripheral else {
            throw ValidationError("give --peripheral: \(labelsPath) has no peripheral column")
        }
        var options = try PeripheralOptions.parse(["--peripheral", String(id)] + ((unit ?? labels.labels.first?.unit).map { ["--unit", $0] } ?? []))
        options.overlays = nil
        let (definition, resolvedUnit) = try options.resolve()
        let runner = BatchRunner(
            peripheral: definition, unit: resolvedUnit, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        var progress = ProgressBar(total: labels.labels.count, label: "evaluating")
        let evaluation = Evaluation.run(folder: folder, labels: labels, runner: runner) { done, _ in progress.update(done) }
        progress.finish()
        let total = evaluation.total
        func pct(_ n: Int) -> String { total == 0 ? "0.0%" : String(format: "%.1f%%", 100 * Double(n) / Double(total)) }
        let correct = evaluation.count(.correct), wrong = evaluation.count(.wrong)
        let none = evaluation.count(.noReading), errors = evaluation.count(.error)
        if json {
            struct Summary: Encodable {
                var folder: String, peripheral: Int, unit: String?, total: Int, correct: Int, wrong: Int
                var noReading: Int, errors: Int, accuracy: Double, wrongRate: Double
                var wrongItems: [[String: String]]
            }
            let summary = Summary(
                folder: folder, peripheral: id, unit: resolvedUnit, total: total, correct: correct, wrong: wrong,
                noReading: none, errors: errors,
                accuracy: total == 0 ? 0 : Double(correct) / Double(total), wrongRate: total == 0 ? 0 : Double(wrong) / Double(total),
                wrongItems: evaluation.items.filter { $0.verdict == .wrong }.map { ["file": $0.file, "label": $0.label, "read": $0.read ?? ""] })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
            return
        }
        print("\(folder) (peripheral \(id)\(resolvedUnit.map { ", \($0)" } ?? "")): \(total) images")
        print("  correct     \(correct)  \(pct(correct))")
        print("  wrong       \(wrong)  \(pct(wrong))")
        print("  no reading  \(none)  \(pct(none))")
        if errors > 0 { print("  errors      \(errors)  \(pct(errors))") }
        let listed = evaluation.items.filter { verbose || $0.verdict == .wrong || $0.verdict == .error }
        if !listed.isEmpty {
            print("")
            print(TextTable.render([["FILE", "LABEL", "READ", "VERDICT", "NOTE"] + (verbose ? ["SEEN"] : [])] + listed.map {
                [$0.file, $0.label, $0.read ?? "-", $0.verdict.rawValue, $0.message ?? ""] + (verbose ? [$0.seen] : [])
            }))
        }
    }
}
