import ArgumentParser
import Foundation
import VitalSnapCore
import VitalSnapHealth
import VitalSnapRecords

/// `vitalsnap health history`: a range of past days from an export, queued whether or not it was delivered.
struct HealthHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Queue a range of past days from an export: daily step summaries, workouts, intraday steps.",
        discussion: """
            The SDK's history fetch: whole days from --from to --to (local dates, both included), whether or not \
            they were delivered before (activity IDs keep them from doubling on the server). `summary` is one \
            routine record per day and source (steps, distance, flights, energy, exercise time), `workout` one \
            fitness record per workout, `intraday` steps per hour and source. At most \(HistoryLimits.days) days \
            back from today (intraday: \(HistoryLimits.intradayDays)). Reads PATH, else the export last imported.

            Examples:
              vitalsnap health history --sets summary --from 2026-06-01 --to 2026-06-30
              vitalsnap health history --sets intraday,workout --from 2026-11-20 \\
                  --to 2026-11-25 export.zip
            """)

    enum HistorySet: String, CaseIterable {
        case summary, workout, intraday
    }

    /// The SDK's limits: 180 days of history counting today, 7 days of intraday data.
    enum HistoryLimits {
        static let days = 179
        static let intradayDays = 7
    }

    @Option(help: ArgumentHelp("summary, workout and/or intraday, comma-separated.", valueName: "sets")) var sets: String
    @Option(help: ArgumentHelp("First day, YYYY-MM-DD.", valueName: "date")) var from: String
    @Option(help: ArgumentHelp("Last day, YYYY-MM-DD (included).", valueName: "date")) var to: String
    @Argument(help: "export.zip, export.xml or its folder (default: the export last imported).") var path: String?
    @OptionGroup var state: StateOptions

    func chosenSets() throws -> Set<HistorySet> {
        let names = HealthSubscriptionOptions.list(sets)
        guard !names.isEmpty else { throw ValidationError("--sets is empty: give summary, workout and/or intraday") }
        return Set(try names.map { name in
            guard let set = HistorySet(rawValue: name.lowercased()) else {
                throw ValidationError("'\(name)' is not a history set: summary, workout, intraday")
            }
            return set
        })
    }

    /// A day as a calendar date: `YYYY-MM-DD` exactly (a whole day, not a time).
    static func day(_ text: String, _ option: String) throws -> (text: String, days: Int) {
        guard let date = HealthDate(parsing: text + " 00:00:00 +0000"), date.localDay == text else {
            throw ValidationError("\(option) \(text) is not a whole day (YYYY-MM-DD)")
        }
        return (text, Int(date.seconds / 86_400))
    }

    func validate() throws {
        let chosen = try chosenSets()
        let first = try Self.day(from, "--from"), last = try Self.day(to, "--to")
        guard first.days <= last.days else { throw ValidationError("--from \(from) is after --to \(to)") }
        let today = HealthDate(seconds: Int64(Date().timeIntervalSince1970), offset: UTCOffset(timeZone: .current, at: Date()))
        let todayDays = try Self.day(today.localDay, "today").days
        guard last.days <= todayDays else { throw ValidationError("--to \(to) is in the future (today is \(today.localDay))") }
        let limit = chosen.contains(.intraday) ? HistoryLimits.intradayDays : HistoryLimits.days
        guard todayDays - first.days <= limit else {
            throw ValidationError(
                "--from \(from) is more than \(limit) days before today (\(today.localDay)): history goes back at most \(limit) days"
                    + (chosen.contains(.intraday) ? " for intraday data" : ""))
        }
    }

    func run() async throws {
        state.bootstrapLogging()
        let chosen = try chosenSets()
        let anchors: HealthAnchors.Stored
        do { anchors = try HealthAnchors(directory: state.directory).load() } catch { throw CLIError(error.description) }
        guard let source = path ?? anchors.lastExport else {
            throw CLIError("no export given and none imported yet: give the export's path")
        }
        let located: HealthExportLocator.Located
        do { located = try HealthExportLocator.locate(source) } catch { throw CLIError(error.description) }
        let session = try state.loadSession()
        let queue = try state.openQueue()
        var subscribed: Set<String> = []
        if chosen.contains(.summary) { subscribed.formUnion(HealthSubscriptionSet.routine.identifiers) }
        if chosen.contains(.workout) { subscribed.insert(HealthSubscriptionSet.workoutIdentifier) }
        if chosen.contains(.intraday) { subscribed.insert("HKQuantityTypeIdentifierStepCount") }
        let importer = HealthImporter(queue: queue, owner: session?.ownerKey, subscribed: subscribed, anchors: nil)
        importer.dayRange = from...to
        importer.hourlySteps = chosen.contains(.intraday)
        importer.dailyTotals = chosen.contains(.summary)
        let summary: HealthImportSummary
        do { summary = try importer.run(located) } catch { throw CLIError("\(error)") }
        HealthImportRun(state: state, json: false).report(summary, name: located.name)
        if let session, summary.queued > 0 {
            let upload = try await UploadRun.run(queue: queue, session: session, options: state, policy: UploadRun.impatient)
            printError(UploadRun.describe(upload))
        }
        if let error = summary.error {
            printError("Error: \(error.description)")
            throw ExitCode(HealthImportCommand.stoppedEarlyStatus)
        }
    }
}
