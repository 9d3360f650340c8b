import ArgumentParser
import Foundation
import VitalSnapIngestStub

/// A local stand-in for Validic's ingestion server, to try uploads and measure them without an account.
struct ServeIngestionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-ingestion",
        abstract: "Run a local stand-in for the ingestion server on 127.0.0.1 (for trying and measuring uploads).",
        discussion: """
            Implements the record and media routes, stores records in memory deduplicated by activity ID, and \
            prints one line per stored record. Point a session at it with --endpoint.

            Example:
              vitalsnap serve-ingestion --port 8080 &
              vitalsnap session start --user u --org o --token t --endpoint http://127.0.0.1:8080/v1
            """)

    @Option(help: ArgumentHelp("Port to listen on (0: any free port, printed on start).", valueName: "port")) var port: UInt16 = 8080
    @Option(help: ArgumentHelp("Token to require (default: any).", valueName: "token")) var token: String?

    func run() throws {
        let server = IngestionStubServer(expectedToken: token)
        do { try server.start(port: port) } catch { throw CLIError("\(error)") }
        // Unbuffered writes: a script waiting for the port reads it at once.
        func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        say("listening on \(server.baseURL.absoluteString)")
        var reported = 0
        while true {
            Thread.sleep(forTimeInterval: 0.5)
            let stored = server.storedRecords
            while reported < stored.count {
                say("stored \(stored[reported].type) \(stored[reported].activityID) (duplicates so far: \(server.duplicateDeliveries))")
                reported += 1
            }
        }
    }
}
