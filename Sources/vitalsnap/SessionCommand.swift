import ArgumentParser
import Foundation
import VitalSnapBluetooth
import VitalSnapCore
import VitalSnapHealth

struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Start, show or end the session of the user records are uploaded for.",
        discussion: """
            A session is a Validic user ID, organization ID and mobile access token, and the endpoint the \
            ingestion routes are appended to. It is kept in the data directory, readable only by you.

            Examples:
              vitalsnap session start --user 5f1e... --org 59b0... --token 8c3a...
              vitalsnap session show
              vitalsnap session end --yes
            """,
        subcommands: [Start.self, Show.self, End.self])

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a session, replacing the current one.",
            discussion: """
                Starting a session for another user replaces the current one and deletes the records it still \
                had queued; you are asked first (or give --yes). Restarting the same user's session (a new \
                token) keeps them. Records queued while there was no session are uploaded for the new user.
                """)

        @Option(help: ArgumentHelp("Validic user ID.", valueName: "id")) var user: String
        @Option(help: ArgumentHelp("Validic organization ID.", valueName: "id")) var org: String
        @Option(help: ArgumentHelp("The user's mobile access token.", valueName: "token")) var token: String
        @Option(help: ArgumentHelp("Base URL of the ingestion routes (default \(UserSession.defaultEndpoint.absoluteString)).", valueName: "url"))
        var endpoint: String?
        @Flag(help: "Do not ask before deleting the previous session's queued records.") var yes = false
        @Flag(help: "Only store the session; do not upload what is queued.") var noUpload = false
        @OptionGroup var state: StateOptions

        func run() async throws {
            state.bootstrapLogging()
            guard let url = URL(string: endpoint ?? UserSession.defaultEndpoint.absoluteString) else {
                throw ValidationError("--endpoint \(endpoint ?? "") is not a URL")
            }
            let session = UserSession(userID: user, organizationID: org, accessToken: token, endpoint: url)
            do { try session.validate() } catch { throw ValidationError(error.description) }
            let queue = try state.openQueue()
            let previous = try state.loadSession()
            if let previous, previous.ownerKey != session.ownerKey {
                let pending = try queue.count(owner: previous.ownerKey)
                if pending > 0 {
                    try Confirmation.confirm(
                        "This replaces the session of user \(previous.userID) (organization \(previous.organizationID)), "
                            + "which has \(pending) record\(pending == 1 ? "" : "s") waiting to upload: they will be deleted.",
                        assumeYes: yes)
                }
                let removed = try queue.purge(owner: previous.ownerKey)
                if removed > 0 { printError("deleted \(removed) queued record\(removed == 1 ? "" : "s") of user \(previous.userID)") }
            }
            do { try state.store().save(session) } catch { throw CLIError(error.description) }
            let adopted = try queue.adoptUnowned(by: session.ownerKey)
            if adopted > 0 { printError("\(adopted) record\(adopted == 1 ? "" : "s") queued without a session will be uploaded for this user") }
            // A fresh session is a reason to try again after a pause for refused credentials.
            try queue.resume()
            print("session started for user \(user) (organization \(org)) at \(url.absoluteString)")
            let pending = try queue.count(owner: session.ownerKey)
            if pending > 0 && !noUpload {
                let summary = try await UploadRun.run(queue: queue, session: session, options: state, policy: UploadRun.impatient)
                printError(UploadRun.describe(summary))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the current session (token masked) and its queue.")

        @Flag(help: "Print as one JSON object.") var json = false
        @OptionGroup var state: StateOptions

        func run() throws {
            state.bootstrapLogging()
            guard let session = try state.loadSession() else {
                if json { print("null") } else { print("no session (data directory \(state.directory.path))") }
                throw ExitCode(1)
            }
            let queue = try state.openQueue()
            let pending = try queue.count(owner: session.ownerKey)
            let paused = try queue.pauseReason()
            if json {
                var object: [String: Any] = [
                    "user_id": session.userID, "organization_id": session.organizationID, "token": session.maskedToken,
                    "endpoint": session.endpoint.absoluteString, "pending": pending, "data_dir": state.directory.path,
                ]
                object["paused"] = paused ?? NSNull()
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            print("user:          \(session.userID)")
            print("organization:  \(session.organizationID)")
            print("token:         \(session.maskedToken)")
            print("endpoint:      \(session.endpoint.absoluteString)")
            print("queued:        \(pending) record\(pending == 1 ? "" : "s")")
            if let paused { print("uploads:       paused (\(paused)); `vitalsnap queue retry` resumes them") }
            print("data:          \(state.directory.path)")
        }
    }

    struct End: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "End the session: delete the user, their queued records, their subscriptions and their Bluetooth state (passive peripherals, meters read).")

        @Flag(help: "Do not ask before deleting queued records.") var yes = false
        @OptionGroup var state: StateOptions

        func run() throws {
            state.bootstrapLogging()
            guard let session = try state.loadSession() else {
                print("no session to end")
                return
            }
            let queue = try state.openQueue()
            let pending = try queue.count(owner: session.ownerKey)
            if pending > 0 {
                try Confirmation.confirm(
                    "User \(session.userID) has \(pending) record\(pending == 1 ? "" : "s") waiting to upload: ending the session deletes them.",
                    assumeYes: yes)
            }
            let removed = try queue.purge(owner: session.ownerKey)
            do { try state.store().delete() } catch { throw CLIError(error.description) }
            // Passive Bluetooth reading and the meters' anchors belong to the session, as in the SDK.
            BLEPassiveSettings(directory: state.directory).clear()
            BLEAnchorStore(directory: state.directory).clear()
            // Health-data subscriptions belong to the session too.
            HealthSubscriptions(directory: state.directory).clear()
            HealthAnchors(directory: state.directory).clear()
            print("session of user \(session.userID) ended; \(removed) queued record\(removed == 1 ? "" : "s") deleted")
        }
    }
}
