import ArgumentParser
import Foundation
import VitalSnapCore
import VitalSnapRecords

struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "List, upload, retry or purge the records waiting to upload.",
        discussion: """
            Every record (camera, manual entry, Bluetooth) waits in one queue in the data directory until the \
            server accepts it. Records go in the order they were queued, each image right after its record.

            Examples:
              vitalsnap queue list
              vitalsnap queue upload --events jsonl
              vitalsnap queue retry
              vitalsnap queue purge --yes
              vitalsnap queue import records.jsonl
            """,
        subcommands: [List.self, Upload.self, Retry.self, Purge.self, Import.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the queued records, oldest first.")

        @Flag(help: "Print the records the server refused instead.") var rejected = false
        @Flag(help: "Print JSON lines: the record's JSON with the queue's fields.") var json = false
        @OptionGroup var state: StateOptions

        func run() throws {
            state.bootstrapLogging()
            let queue = try state.openQueue()
            if rejected {
                for item in try queue.rejected() {
                    if json {
                        printJSON(["activity_id": item.activityID, "record_type": item.type.rawValue, "status": item.status,
                                   "message": item.message, "record": jsonValue(item.json)])
                    } else {
                        print("\(item.type.rawValue)\t\(item.activityID)\tHTTP \(item.status)\t\(item.message)")
                    }
                }
                return
            }
            let items = try queue.pending()
            for item in items {
                if json {
                    printJSON([
                        "sequence": item.sequence, "activity_id": item.activityID, "record_type": item.type.rawValue,
                        "image": item.imagePath ?? NSNull(), "record_sent": item.serverRecordID != nil,
                        "attempts": item.attempts, "last_error": item.lastError ?? NSNull(), "record": jsonValue(item.json),
                    ])
                } else {
                    let summary = (try? item.record()).map(Self.summary) ?? "(unreadable record)"
                    var line = "\(item.sequence)\t\(item.type.rawValue)\t\(summary)\t\(item.activityID)"
                    if item.imagePath != nil { line += item.serverRecordID == nil ? "\twith image" : "\timage still to send" }
                    if let error = item.lastError { line += "\t\(item.attempts) failed: \(error)" }
                    print(line)
                }
            }
            if !json {
                let paused = try queue.pauseReason()
                printError("\(items.count) record\(items.count == 1 ? "" : "s") queued\(paused.map { "; uploads paused: \($0)" } ?? "")")
            }
        }

        static func summary(_ record: Record) -> String {
            let time = record.header.timestampText
            switch record {
            case .diabetes(let r):
                return "\(r.displayedBloodGlucose.unit.format(r.displayedBloodGlucose.value)) \(r.displayedBloodGlucose.unit.symbol) at \(time)"
            case .weight(let r): return "\(DecimalRounding.shortText(r.weight)) kg at \(time)"
            case .biometrics(let r):
                return r.measurements.map { "\($0.field.rawValue) \(DecimalRounding.shortText($0.value))" }.joined(separator: ", ") + " at \(time)"
            default:
                return "at \(time)"
            }
        }

        func jsonValue(_ data: Data) -> Any { (try? JSONSerialization.jsonObject(with: data)) ?? NSNull() }

        func printJSON(_ object: [String: Any]) {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        }
    }

    struct Upload: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send everything queued for the session's user and report what happened.",
            discussion: """
                Server errors, timeouts and refused connections are retried with growing delays (about \
                0.5 s, 1 s, 2 s ... up to a minute); after --attempts failures of one record the run stops \
                and the record stays first in line. A refused token pauses uploads until `queue retry`.

                Exit status: 0 when the queue is empty afterwards (refused records are listed by \
                `queue list --rejected`), 3 when records are still queued, 1 for other errors.
                """)

        @Option(help: ArgumentHelp("Failed attempts on one record before this run stops.", valueName: "n")) var attempts = 6
        @Option(help: ArgumentHelp("Seconds to wait for each server answer.", valueName: "s")) var timeout: Double = 30
        @OptionGroup var state: StateOptions

        mutating func validate() throws {
            guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1") }
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            state.bootstrapLogging()
            guard let session = try state.loadSession() else { throw CLIError(SessionError.noSession.description) }
            let queue = try state.openQueue()
            var policy = UploadPolicy()
            policy.maximumAttempts = attempts
            policy.requestTimeout = timeout
            let summary = try await UploadRun.run(queue: queue, session: session, options: state, policy: policy)
            printError(UploadRun.describe(summary))
            if summary.remaining > 0 { throw ExitCode(UploadRun.recordsRemainStatus) }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Resume paused uploads, forget past failures and upload now.")

        @OptionGroup var state: StateOptions

        func run() async throws {
            state.bootstrapLogging()
            guard let session = try state.loadSession() else { throw CLIError(SessionError.noSession.description) }
            let queue = try state.openQueue()
            if let reason = try queue.pauseReason() { printError("resuming uploads paused for: \(reason)") }
            try queue.resume()
            let summary = try await UploadRun.run(queue: queue, session: session, options: state)
            printError(UploadRun.describe(summary))
            if summary.remaining > 0 { throw ExitCode(UploadRun.recordsRemainStatus) }
        }
    }

    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete every queued record and its image, without uploading them.")

        @Flag(help: "Do not ask first.") var yes = false
        @OptionGroup var state: StateOptions

        func run() throws {
            state.bootstrapLogging()
            let queue = try state.openQueue()
            let count = try queue.count()
            guard count > 0 else {
                print("the queue is empty")
                return
            }
            try Confirmation.confirm("Delete \(count) queued record\(count == 1 ? "" : "s") without uploading them?", assumeYes: yes)
            let removed = try queue.purge()
            print("deleted \(removed) queued record\(removed == 1 ? "" : "s")")
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue records from a JSON Lines file (one record per line, keyed by its type).",
            discussion: """
                Each line is a record as the ingestion body carries it, e.g. \
                {"diabetes":{"activity_id":"...","blood_glucose":104,"timestamp":"2026-11-22T08:15:00+01:00",...}}. \
                Every line is validated; a bad line is reported with its number and the others are still queued. \
                Records go to the session's user, or to the next session's when there is none.

                Exit status: 0 when every line was queued, 1 when any was not.
                """)

        @Argument(help: ArgumentHelp("JSON Lines file; - for standard input.", valueName: "file")) var file: String
        @OptionGroup var state: StateOptions

        func run() throws {
            state.bootstrapLogging()
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file)") }
                data = contents
            }
            let queue = try state.openQueue()
            let owner = try state.loadSession()?.ownerKey
            var queued = 0, failed = 0
            for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                do {
                    try queue.submit(try RecordJSON.decode(Data(line)), owner: owner)
                    queued += 1
                } catch let error as StorageError {
                    // A full disk or a damaged queue stops the import: every later line would fail the same way.
                    throw CLIError("line \(index + 1): \(error.description); \(queued) records queued before it")
                } catch {
                    failed += 1
                    printError("line \(index + 1): not queued: \(Self.describe(error))")
                }
            }
            printError("\(queued) record\(queued == 1 ? "" : "s") queued\(failed > 0 ? ", \(failed) refused" : "")")
            if failed > 0 { throw ExitCode(1) }
        }

        static func describe(_ error: Error) -> String {
            if case DecodingError.dataCorrupted(let context) = error { return context.debugDescription }
            if case DecodingError.keyNotFound(let key, _) = error { return "missing \(key.stringValue)" }
            if case DecodingError.typeMismatch(_, let context) = error {
                return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
            }
            return "\(error)"
        }
    }
}
