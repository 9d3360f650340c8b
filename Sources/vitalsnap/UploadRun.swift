import ArgumentParser
import Foundation
import VitalSnapCore

/// Runs the uploader for the session, printing each event as it happens and a summary at the end.
enum UploadRun {
    /// Exit status when records remain queued (server unreachable, or uploads paused).
    static let recordsRemainStatus: Int32 = 3

    /// For the upload that follows a submit or a session start: a person is waiting, so two quick tries, and
    /// `queue upload` keeps trying longer.
    static let impatient = UploadPolicy(requestTimeout: 15, initialDelay: 0.5, maximumDelay: 2, maximumAttempts: 2)

    static func run(queue: UploadQueue, session: UserSession, options: StateOptions, policy: UploadPolicy = UploadPolicy()) async throws
        -> Uploader.Summary
    {
        let lock: UploadLock?
        do { lock = try UploadLock(directory: queue.directory) } catch { throw CLIError(error.description) }
        guard let lock else {
            printError("another vitalsnap is uploading this queue now; it will send these records too")
            return Uploader.Summary(remaining: (try? queue.count(owner: session.ownerKey)) ?? 0, stoppedBecause: "another upload is running")
        }
        let uploader = Uploader(queue: queue, session: session, policy: policy)
        let printer = Task {
            for await event in uploader.events {
                switch options.events {
                case .text: printError(event.description)
                case .jsonl: print(event.jsonLine)
                }
            }
        }
        let summary: Uploader.Summary
        do {
            summary = try await uploader.uploadAll()
        } catch {
            throw CLIError(error.description)
        }
        await printer.value
        withExtendedLifetime(lock) {}
        return summary
    }

    static func describe(_ summary: Uploader.Summary) -> String {
        var parts = ["\(summary.recordsSubmitted) record\(summary.recordsSubmitted == 1 ? "" : "s") submitted"]
        if summary.recordsRejected > 0 { parts.append("\(summary.recordsRejected) refused by the server (see `vitalsnap queue list --rejected`)") }
        if summary.imagesSubmitted > 0 { parts.append("\(summary.imagesSubmitted) image\(summary.imagesSubmitted == 1 ? "" : "s") submitted") }
        if summary.imagesFailed > 0 { parts.append("\(summary.imagesFailed) image\(summary.imagesFailed == 1 ? "" : "s") not submitted") }
        parts.append("\(summary.remaining) still queued")
        var text = parts.joined(separator: ", ")
        if let why = summary.stoppedBecause { text += "; stopped: \(why)" }
        return text
    }
}
