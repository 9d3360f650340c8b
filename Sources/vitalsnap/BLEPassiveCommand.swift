import ArgumentParser
import Foundation
import VitalSnapBluetooth
import VitalSnapCore

/// `vitalsnap ble passive`: which peripherals are read without being asked, and the reader that does it.
struct BLEPassiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passive",
        abstract: "Read chosen Bluetooth peripherals whenever they advertise, in the background.",
        discussion: """
            `set` chooses the peripherals (kept with the session, cleared by `session end`), `show` lists them, \
            `run` listens for them until stopped (Ctrl-C or SIGTERM); a systemd user unit for `run` is in \
            Scripts/systemd/vitalsnap-ble-passive.service.

            Examples:
              vitalsnap ble passive set 2,30
              vitalsnap ble passive show
              vitalsnap ble passive run --events jsonl
            """,
        subcommands: [BLEPassiveSetCommand.self, BLEPassiveShowCommand.self, BLEPassiveRunCommand.self])
}

struct BLEPassiveSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Choose the peripherals passive reading listens for (comma-separated ids; 'none' turns it off).")

    @Argument(help: "Peripheral ids, e.g. 2,30, or none.") var ids: String
    @OptionGroup var state: StateOptions

    func parsed() throws -> [Int] {
        if ids.lowercased() == "none" { return [] }
        var result: [Int] = []
        for part in ids.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let id = Int(part) else { throw ValidationError("'\(part)' is not a peripheral id") }
            let peripheral = try BLEOptions.peripheral(id)
            if case .unsupported(let why) = peripheral.readSupport {
                throw ValidationError("peripheral \(id) cannot be read by VitalSnap: \(why)")
            }
            result.append(id)
        }
        return result
    }

    func validate() throws { _ = try parsed() }

    func run() throws {
        let ids = try parsed()
        do { try BLEPassiveSettings(directory: state.directory).set(ids) } catch { throw CLIError(error.description) }
        print(ids.isEmpty ? "passive reading is off" : "passive reading listens for \(ids.map(String.init).joined(separator: ","))")
    }
}

struct BLEPassiveShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "List the peripherals passive reading listens for.")

    @OptionGroup var state: StateOptions

    func run() throws {
        let ids: [Int]
        do { ids = try BLEPassiveSettings(directory: state.directory).peripheralIDs() } catch { throw CLIError(error.description) }
        if ids.isEmpty {
            print("passive reading is off: `vitalsnap ble passive set ID,...` turns it on")
            return
        }
        let catalog = try BLEPeripheralCatalog.builtIn()
        for id in ids { print("\(id)  \(catalog[id]?.name ?? "(not in this catalog)")") }
    }
}

struct BLEPassiveRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Listen for the chosen peripherals and read each one when it advertises, until stopped.",
        discussion: """
            Restores the peripherals chosen with `ble passive set`, looks for them, and reads each device as it \
            advertises: its readings are queued and uploaded for the session's user without asking. After a \
            read the device is left alone until it has stopped advertising for --quiet-time seconds (a device \
            keeps advertising for a while after a measurement). An interactive `ble read` suspends it until it \
            ends. Events (ready to read, read, failed, suspended, with the peripheral id) are lines on stderr, \
            or JSON lines on stdout with --events jsonl. Stops on Ctrl-C or SIGTERM (exit 0).

            Examples:
              vitalsnap ble passive run
              vitalsnap ble passive run --events jsonl --log bluetooth
              systemctl --user enable --now vitalsnap-ble-passive.service
            """)

    @Option(help: ArgumentHelp(
        "Seconds a device must have stopped advertising before it is read again.", valueName: "s"))
    var quietTime: Double = BLEPassiveReader.defaultQuietTime
    @OptionGroup var ble: BLEOptions
    @OptionGroup var state: StateOptions

    func validate() throws {
        if !(quietTime >= 0 && quietTime.isFinite) { throw ValidationError("--quiet-time must be zero or more seconds") }
    }

    func run() async throws {
        state.bootstrapLogging()
        let directory = state.directory
        let ids: [Int]
        do { ids = try BLEPassiveSettings(directory: directory).peripheralIDs() } catch { throw CLIError(error.description) }
        guard !ids.isEmpty else { throw CLIError("no peripherals chosen: `vitalsnap ble passive set ID,...` first") }
        let peripherals = try ids.map(BLEOptions.peripheral)
        guard let session = try state.loadSession() else { throw BLEFailure(.noUser).exit(json: false) }
        let queue = try state.openQueue()
        let controller: BLEController
        do { controller = try ble.controller() } catch let failure as BLEFailure { throw failure.exit(json: false) }
        let anchors = BLEAnchorStore(directory: directory)
        let delivery = BLERecordDelivery(queue: queue, owner: session.ownerKey, anchors: anchors)
        let reader = BLEPassiveReader(controller: controller, peripherals: peripherals, quietTime: quietTime)
        do { reader.lock = try BLEOperationLock(directory: directory) } catch { throw CLIError(error.description) }
        let format = state.events
        reader.onEvent = { event in BLEPassiveEventText.emit(event, format: format) }
        reader.anchor = { peripheral, address in try? anchors.lastSequenceNumber(peripheralID: peripheral.id, address: address) }
        let state = self.state
        reader.deliver = { outcome in
            let summary = try delivery.deliver(outcome, readings: delivery.readings(outcome))
            if !summary.queued.isEmpty { Self.uploadBlocking(queue: queue, session: session, options: state) }
            return summary.queued.count
        }
        // SIGTERM too: systemd stops a service with it.
        let stop = InterruptFlag(signals: [SIGINT, SIGTERM])
        // The reader blocks on the bus, so it runs on a thread of its own, not on one of Swift's few pooled ones.
        let result: Result<Void, BusError> = await withCheckedContinuation { continuation in
            Thread {
                do throws(BusError) {
                    try reader.run(shouldStop: { stop.isRaised })
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }.start()
        }
        if case .failure(let error) = result { throw CLIError("the bus connection to BlueZ ended: \(error)") }
    }

    /// Uploads what was just queued, waiting for it (called on the reader's own thread, never on the pool's).
    static func uploadBlocking(queue: UploadQueue, session: UserSession, options: StateOptions) {
        let done = DispatchSemaphore(value: 0)
        Task {
            if let summary = try? await UploadRun.run(queue: queue, session: session, options: options, policy: UploadRun.impatient) {
                printError(UploadRun.describe(summary))
            }
            done.signal()
        }
        done.wait()
    }
}

/// Passive reading's events as lines on stderr, or JSON lines on stdout.
enum BLEPassiveEventText {
    static func emit(_ event: BLEPassiveReader.Event, format: StateOptions.EventFormat) {
        let fields: [(String, JSONText)]
        let text: String
        switch event {
        case .readyToRead(let ids):
            fields = [("event", .string("ready_to_read")), ("peripherals", .array(ids.map { .int($0) }))]
            text = "listening for \(ids.map(String.init).joined(separator: ","))"
        case .read(let id, let address, let values, let queued):
            fields = [("event", .string("read")), ("peripheral", .int(id)), ("address", .string(address)), ("values", .int(values)), ("queued", .int(queued))]
            text = "read peripheral \(id) \(address): \(values) value\(values == 1 ? "" : "s"), \(queued) queued"
        case .failed(let id, let address, let error):
            fields = [("event", .string("failed")), ("peripheral", id.map { .int($0) } ?? .null), ("address", .optional(address)),
                      ("error", .string(error.name)), ("message", .string(error.description))]
            text = "failed\(id.map { " peripheral \($0)" } ?? "")\(address.map { " \($0)" } ?? ""): \(error)"
        case .suspended(let id, let address):
            fields = [("event", .string("suspended")), ("peripheral", .int(id)), ("address", .string(address))]
            text = "peripheral \(id) \(address) waits: an interactive read is running"
        }
        switch format {
        case .text: printError(text)
        case .jsonl:
            // Unbuffered, a line at a time: whoever reads the events (a test, a pipe into jq) sees each as it happens.
            FileHandle.standardOutput.write(Data((JSONText.object(fields).render(pretty: false) + "\n").utf8))
        }
    }
}
