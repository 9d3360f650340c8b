import ArgumentParser
import Foundation
import VitalSnapCore
import VitalSnapHealth

/// `vitalsnap health import PATH`: an Apple Health export into the upload queue.
struct HealthImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an Apple Health export (export.zip, export.xml or the unpacked folder) into the upload queue.",
        discussion: """
            The export's XML is found by its content (exports from phones in other languages name it \
            differently), read straight out of the zip and parsed as a stream: memory stays small whatever its \
            size. The subscribed types become records: glucose, blood pressure, heart rate, temperature, SpO2 \
            and body mass one each, steps, distance, flights, energy and exercise time one routine record per day \
            and source, food and water one nutrition record per day and source, sleep one record per night, \
            workouts one fitness record each. Importing the same export twice, or an export that overlaps the last \
            one, queues nothing twice: what was delivered is remembered per type (health-anchors.json in the data \
            directory). Records are uploaded at once when a session exists.

            A progress line (bytes, elements, records) is shown on a terminal; a summary per type follows \
            (--json: one JSON object). An export broken in the middle keeps what was read before the break \
            (exit 2, the error names the line); running it again on a repaired file adds only the rest.

            Exit status: 0 imported, 1 the export cannot be read at all (or no subscriptions), 2 it stopped early, \
            3 imported but not all uploaded yet.

            Examples:
              vitalsnap health subscribe --sets diabetes,biometrics,weight,routine
              vitalsnap health subscribe --sets fitness,sleep,basicNutrition
              vitalsnap health import ~/Downloads/export.zip
              vitalsnap health import apple_health_export/ --json
            """)

    @Argument(help: "export.zip, export.xml, or the folder it was unpacked into.") var path: String
    @Flag(help: "Print the summary as one JSON object on stdout.") var json = false
    @OptionGroup var state: StateOptions

    /// Exit status when the export stopped early (what came before is queued).
    static let stoppedEarlyStatus: Int32 = 2

    func run() async throws {
        state.bootstrapLogging()
        let outcome = try await HealthImportRun(state: state, json: json).run(path)
        if let error = outcome.summary.error {
            printError("Error: \(error.description)")
            throw ExitCode(Self.stoppedEarlyStatus)
        }
        if outcome.recordsRemain { throw ExitCode(UploadRun.recordsRemainStatus) }
    }
}

/// One import as `health import` and `health observe` run it: subscriptions and anchors from the data
/// directory, the progress line, the summary (and its event), the anchors saved, the upload.
struct HealthImportRun {
    let state: StateOptions
    let json: Bool

    struct Outcome {
        var summary: HealthImportSummary
        /// Records were queued but not all uploaded (no server, or it refused for now).
        var recordsRemain: Bool
    }

    func run(_ path: String) async throws -> Outcome {
        let subscriptions: HealthSubscriptions.Stored
        do { subscriptions = try HealthSubscriptions(directory: state.directory).load() } catch { throw CLIError("\(error)") }
        guard !subscriptions.isEmpty else {
            throw CLIError("nothing is subscribed, so nothing would be imported: `vitalsnap health subscribe --sets ...` first")
        }
        let located: HealthExportLocator.Located
        do { located = try HealthExportLocator.locate(path) } catch { throw CLIError(error.description) }
        let session = try state.loadSession()
        let queue = try state.openQueue()
        let anchorStore = HealthAnchors(directory: state.directory)
        let anchors: HealthAnchors.Stored
        do { anchors = try anchorStore.load() } catch { throw CLIError(error.description) }
        let importer = HealthImporter(
            queue: queue, owner: session?.ownerKey, subscribed: subscriptions.identifiers, anchors: anchors)
        var line = ByteProgressLine(label: "importing")
        let summary: HealthImportSummary
        do {
            summary = try importer.run(located) { progress in
                line.update(bytes: progress.bytesRead, of: progress.fileSize, elements: progress.elements, records: progress.queued)
            }
        } catch {
            line.clear()
            throw CLIError("\(error)")
        }
        line.clear()
        // Saved once the records are queued: a crash before this repeats the import, which queues nothing twice.
        var newAnchors = summary.anchors
        newAnchors.lastExport = URL(fileURLWithPath: path).standardizedFileURL.path
        do { try anchorStore.save(newAnchors) } catch { throw CLIError(error.description) }
        report(summary, name: located.name)
        var remain = false
        if let session, summary.queued > 0 {
            let upload = try await UploadRun.run(queue: queue, session: session, options: state, policy: UploadRun.impatient)
            printError(UploadRun.describe(upload))
            remain = upload.remaining > 0
        } else if session == nil, summary.queued > 0 {
            printError("no session: the records will be uploaded when one starts")
        }
        return Outcome(summary: summary, recordsRemain: remain)
    }

    func report(_ summary: HealthImportSummary, name: String) {
        let queued = summary.queuedByRecordType.sorted { $0.key < $1.key }
        let event: [(String, JSONText)] = [
            ("event", .string("health_import")), ("export", .string(name)),
            ("queued", .object(queued.map { ($0.key, .int($0.value)) })), ("alreadyQueued", .int(summary.alreadyQueued)),
            ("elements", .int(summary.elements)), ("bytes", .int(Int(summary.bytesRead))),
            ("skipped", .object(summary.skipped.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ("unreadable", .int(summary.unreadable)), ("replacedCharacters", .int(summary.replacedCharacters)),
            ("error", .optional(summary.error?.description)),
        ]
        if json {
            print(JSONText.object(event + [
                ("elementsByType", .object(summary.elementsByType.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
            ]).render(pretty: false))
            return
        }
        // With --events jsonl the event is the one line on stdout (as the queue's events are), the text goes to stderr.
        let say: (String) -> Void
        if state.events == .jsonl {
            FileHandle.standardOutput.write(Data((JSONText.object(event).render(pretty: false) + "\n").utf8))
            say = printError
        } else {
            say = { print($0) }
        }
        say("\(name): \(summary.elements) elements read, \(summary.queued) records queued"
            + (summary.alreadyQueued > 0 ? ", \(summary.alreadyQueued) already queued" : ""))
        for (type, count) in queued { say("  \(type): \(count)") }
        for (reason, count) in summary.skipped.sorted(by: { $0.key < $1.key }) { say("  skipped, \(reason): \(count)") }
        if summary.unreadable > 0 { say("  unreadable elements: \(summary.unreadable)") }
        if summary.replacedCharacters > 0 { say("  control characters replaced: \(summary.replacedCharacters)") }
    }
}

/// One line on stderr while a large file is read: bytes, elements and records, and the time left; only on a
/// terminal.
struct ByteProgressLine {
    let label: String
    let enabled = isatty(STDERR_FILENO) != 0
    private let start = Date()
    private var drawn = false

    init(label: String) { self.label = label }

    mutating func update(bytes: Int64, of total: Int64, elements: Int, records: Int) {
        guard enabled else { return }
        let elapsed = Date().timeIntervalSince(start)
        let megabytes = Double(bytes) / 1_000_000, totalMegabytes = Double(total) / 1_000_000
        let left = bytes > 0 && total > bytes && elapsed > 1
            ? "  " + ProgressBar.duration(elapsed * Double(total - bytes) / Double(bytes)) + " left" : ""
        let text = String(
            format: "\r\u{1B}[K%@ %.0f/%.0f MB  %d elements  %d records%@", label, megabytes, totalMegabytes, elements, records, left)
        FileHandle.standardError.write(Data(text.utf8))
        drawn = true
    }

    mutating func clear() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }
}
