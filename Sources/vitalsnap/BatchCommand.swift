import ArgumentParser
import Foundation
import VitalSnapImaging
import VitalSnapOCR

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Read the displays in a set of photos (JSON Lines, TSV or a table).",
        discussion: """
            Takes image files and folders (searched recursively for \(ImageFormat.fileExtensionList) \
            files; hidden files skipped). JPEG, PNG, WebP and HEIF/HEIC are read, told apart by their \
            bytes, not their names. Prints one result per image, in input order, as soon as it and all before it \
            are read. A photo that shows no readable value gets status `no-reading` with the reason; a file \
            that cannot be read (empty, truncated, corrupt, not an image, too large, missing, or a folder \
            that cannot be listed) gets status `error` with a message, and the batch goes on.

            JSON Lines (the default): one object per image with the keys file, status (ok, no-reading or \
            error), reading (e.g. "120/80/72", or null), values (field, value, text, unit), unit, confidence \
            (0-1), glare (share of the display, coversDigits, regions), display (the text seen), word (LO, HI, \
            Err), message (why no reading), error (why unreadable) and warnings. Every key is always present.

            A progress bar is drawn on stderr when stderr is a terminal.

            Exit status: 0 when every image was processed (whether or not it showed a value), 1 when any \
            image could not be read (the files are listed on stderr), 64 for a usage error.

            Examples:
              vitalsnap batch photos/ --peripheral 9
              vitalsnap batch a.jpg b.jpg -p 9 --unit mmol --format table
              vitalsnap batch Samples/stills/bp-b3 -p 2 --format tsv > bp.tsv
              vitalsnap batch photos/ -p 9 | jq -r 'select(.status == "ok") | .reading'
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, tsv, table
    }

    @Argument(help: ArgumentHelp("Image files or folders.", valueName: "path")) var paths: [String]
    @OptionGroup var options: PeripheralOptions
    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var logging: LogOptions
    @Option(name: .shortAndLong, help: ArgumentHelp("Photos read at once (default: all cores).", valueName: "n"))
    var jobs: Int?
    @Option(help: "Output format: jsonl (one JSON object per line), tsv (with a header line) or table.")
    var format: Format = .jsonl

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    static let tsvHeader = ["file", "status", "reading", "unit", "confidence", "glare", "message"]

    func run() throws {
        logging.bootstrap()
        let setting = try options.resolve()
        let entries = ImageFileCollector.collect(paths)
        if entries.isEmpty {
            throw CommandFailure("no image files (\(ImageFormat.fileExtensionList)) found in \(paths.joined(separator: ", "))")
        }
        var runner = BatchRunner(
            peripheral: setting.peripheral, unit: setting.unit, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        runner.reader = try readerOptions.choice()
        var progress = ProgressBar(total: entries.count, label: "reading")
        var failures: [PhotoResultJSON] = []
        var tableRows = [["FILE", "STATUS", "READING", "UNIT", "CONF", "GLARE", "NOTE"]]
        if format == .tsv { print(Self.tsvHeader.joined(separator: "\t")) }
        runner.run(entries) { index, result in
            let json = PhotoResultJSON(result)
            if result.status == .error { failures.append(json) }
            switch format {
            case .jsonl:
                progress.clear()
                print(json.line())
            case .tsv:
                progress.clear()
                let glare = json.glare.map { JSONText.number($0.share).render() } ?? ""
                let confidence = JSONText.number(json.confidence).render()
                print([json.file, json.status, json.reading ?? "", json.unit ?? "", confidence, glare, json.note]
                    .map(Self.tsvCell).joined(separator: "\t"))
            case .table:
                tableRows.append([
                    json.file, json.status, json.reading ?? json.word ?? "-", json.unit ?? "",
                    json.status == "ok" ? String(format: "%.2f", json.confidence) : "",
                    Self.glareCell(json.glare), json.note,
                ])
            }
            fflush(nil)  // stream results as they come, even into a pipe
            progress.update(index + 1)
        }
        progress.clear()
        if format == .table { print(TextTable.render(tableRows)) }
        fflush(nil)
        if !failures.isEmpty {
            printError("vitalsnap: \(failures.count) of \(entries.count) image\(entries.count == 1 ? "" : "s") could not be read:")
            for f in failures.prefix(20) { printError("  \(f.file): \(f.note)") }
            if failures.count > 20 { printError("  ... and \(failures.count - 20) more") }
            throw ExitCode(1)
        }
    }

    /// A TSV cell: tabs and line breaks would break the columns.
    static func tsvCell(_ s: String) -> String {
        s.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " | ")
    }

    static func glareCell(_ g: PhotoResultJSON.Glare?) -> String {
        guard let g, g.share > 0 || g.coversDigits else { return "" }
        return String(format: "%.0f%%", g.share * 100) + (g.coversDigits ? " over digits" : "")
    }
}
