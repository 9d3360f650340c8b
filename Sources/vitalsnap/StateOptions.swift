import ArgumentParser
import Foundation
import Logging
import VitalSnapCore

/// Where the session and queue live, and what the commands that upload print: shared by session, submit and queue.
struct StateOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Folder for the session, the upload queue and its images (default: $VITALSNAP_DATA_DIR, else $XDG_DATA_HOME/vitalsnap, else ~/.local/share/vitalsnap).",
        valueName: "dir"))
    var dataDir: String?

    @Option(help: ArgumentHelp("How upload events are printed: text (lines on stderr) or jsonl (JSON lines on stdout).", valueName: "format"))
    var events: EventFormat = .text

    @OptionGroup var logging: LogOptions

    enum EventFormat: String, ExpressibleByArgument, CaseIterable {
        case text, jsonl
    }

    var directory: DataDirectory { DataDirectory.resolve(explicit: dataDir) }

    func bootstrapLogging() { logging.bootstrap() }

    func store() -> SessionStore { SessionStore(directory: directory) }

    func openQueue() throws -> UploadQueue {
        do { return try UploadQueue(directory: directory) } catch { throw CLIError(error.description) }
    }

    func loadSession() throws -> UserSession? {
        do { return try store().load() } catch { throw CLIError(error.description) }
    }
}

/// `--log core,ocr`: which modules' logs are printed on stderr (none by default).
struct LogOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Log categories to print on stderr, comma-separated: core, ocr, capture, bluetooth, health, or all.", valueName: "categories"))
    var log: String?

    mutating func validate() throws {
        if let log {
            let unknown = LogCategories.parse(log).subtracting(LogCategories.all + ["all"])
            if !unknown.isEmpty {
                throw ValidationError("unknown log categories \(unknown.sorted().joined(separator: ", ")); known: \(LogCategories.all.joined(separator: ", ")), all")
            }
        }
    }

    /// Starts logging for the categories asked for (labels `vitalsnap.<category>`) at `level`; call once, before
    /// any work.
    func bootstrap(level: Logger.Level = .debug) {
        Self.bootstrap(categories: log.map(LogCategories.parse) ?? [], level: level)
    }

    static func bootstrap(categories enabled: Set<String>, level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            let category = label.split(separator: ".").last.map(String.init) ?? label
            handler.logLevel = enabled.contains("all") || enabled.contains(category) ? level : .critical
            return handler
        }
    }
}

enum LogCategories {
    static let all = ["core", "ocr", "capture", "bluetooth", "health"]

    static func parse(_ text: String) -> Set<String> {
        Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    }
}

/// A failure with a message for people; exits 1 after printing it as `Error: ...`.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
