import ArgumentParser
import Foundation
import VitalSnapOCR

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Read the displays in a set of photos.",
        discussion: """
            Takes image files and folders (searched recursively for .jpg, .jpeg and .png) and prints one \
            result per image, in input order. A photo that shows no readable value gets status `no-reading`; \
            a file that cannot be decoded gets status `error` with a message, and the batch goes on.

            Exit status: 0 when every image was processed (whether or not it showed a value), 1 when any \
            image could not be read.

            Examples:
              vitalsnap batch photos/ --peripheral 9
              vitalsnap batch meter1.jpg meter2.jpg --peripheral 9 --unit mmol --format table
              vitalsnap batch Samples/stills/bp-b3 --peripheral 2 --format tsv > readings.tsv
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, tsv, table
    }

    @Argument(help: "Image files or folders.") var paths: [String]
    @OptionGroup var options: PeripheralOptions
    @Option(name: .shortAndLong, help: "Photos read at once (default: all cores).") var jobs: Int?
    @Option(help: "Output format: jsonl (one JSON object per line), tsv or table.") var format: Format = .jsonl

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let (peripheral, unit) = try options.resolve()
        let entries = ImageFileCollector.collect(paths)
        if entries.isEmpty { throw ValidationError("no images found in \(paths.joined(separator: ", "))") }
        let runner = BatchRunner(
            peripheral: peripheral, unit: unit, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        var progress = ProgressBar(total: entries.count, label: "reading")
        var failures = 0
        var tableRows = [["FILE", "STATUS", "READING", "UNIT", "CONF", "NOTE"]]
        if format == .tsv { print(["file", "status", "reading", "unit", "confidence", "glare", "message"].joined(separator: "\t")) }
        runner.run(entries) { index, result in
            if result.status == .error { failures += 1 }
            let json = PhotoResultJSON(result)
            switch format {
            case .jsonl:
                progress.finish()
                print(json.line())
            case .tsv:
                progress.finish()
                print([json.file, json.status, json.reading ?? "", json.unit ?? "", String(json.confidence),
                       String(json.glare?.share ?? 0), (json.error ?? json.message ?? "").replacingOccurrences(of: "\t", with: " ")]
                    .joined(separator: "\t"))
            case .table:
                tableRows.append([json.file, json.status, json.reading ?? json.word ?? "-", json.unit ?? "",
                                  String(format: "%.2f", json.confidence), json.error ?? json.message ?? ""])
            }
            fflush(nil)  // stream results as they come, even into a pipe
            progress.update(index + 1)
        }
        progress.finish()
        if format == .table { print(TextTable.render(tableRows)) }
        if failures > 0 {
            FileHandle.standardError.write(Data("\(failures) of \(entries.count) images could not be read\n".utf8))
            throw ExitCode(1)
        }
    }
}
