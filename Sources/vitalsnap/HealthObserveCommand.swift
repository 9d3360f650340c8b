import ArgumentParser
import Foundation
import VitalSnapHealth

/// `vitalsnap health observe DIR`: continuous delivery from a folder exports arrive in.
struct HealthObserveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observe",
        abstract: "Watch a folder for new Apple Health exports and import each one as it arrives.",
        discussion: """
            Each export.zip or export.xml completed in the folder (written and closed, or moved in) is imported \
            as `health import` does: only the subscribed types, only what is newer than what was delivered \
            before, uploaded when a session exists. Exports already in the folder that were not imported yet \
            are imported first (oldest first), so it resumes after a restart. Runs until Ctrl-C or SIGTERM \
            (exit 0). A systemd user unit is in Scripts/systemd/vitalsnap-health-observe.service.

            Examples:
              vitalsnap health observe ~/HealthExports
              vitalsnap health observe ~/HealthExports --events jsonl --log health
            """)

    @Argument(help: "The folder exports arrive in (a synced folder, a share).") var folder: String
    @OptionGroup var state: StateOptions

    func run() async throws {
        state.bootstrapLogging()
        let watcher: HealthFolderWatcher
        do { watcher = try HealthFolderWatcher(folder: folder) } catch { throw CLIError(error.description) }
        let observed = HealthObservedFiles(directory: state.directory)
        let importer = HealthImportRun(state: state, json: false)
        let stop = InterruptFlag(signals: [SIGINT, SIGTERM])
        printError("watching \(watcher.folder) for Apple Health exports")

        func importIfNew(_ path: String) async {
            let fingerprint = HealthFolderWatcher.fingerprint(path)
            guard !fingerprint.isEmpty, ((try? observed.load()) ?? [:])[path] != fingerprint else { return }
            do {
                let outcome = try await importer.run(path)
                if let error = outcome.summary.error { printError("\(path): stopped early: \(error)") }
            } catch {
                // One bad export never stops the watch: it is reported, remembered, and the next one comes.
                printError("\(path): \(error)")
            }
            do { try observed.record(path, fingerprint: fingerprint) } catch { printError("\(error)") }
        }

        for path in watcher.existing() { await importIfNew(path) }
        while !stop.isRaised {
            for path in watcher.wait(timeout: Self.pollInterval) { await importIfNew(path) }
        }
    }

    /// How often the watch looks at the stop signals.
    static let pollInterval = 0.25
}
