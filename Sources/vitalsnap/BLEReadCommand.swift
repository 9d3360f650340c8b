import ArgumentParser
import Foundation
import VitalSnapBluetooth
import VitalSnapCore
import VitalSnapRecords

/// `vitalsnap ble read ID`: reads a Bluetooth device into the upload queue.
struct BLEReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read a Bluetooth peripheral and queue its readings for upload.",
        discussion: """
            Prints the device's instructions and looks for it (within its connection timeout): wake it or take a \
            measurement now. Connects, and takes its readings: a glucose meter's stored records (only those after \
            the last one read from that meter), any other device's measurements as it sends them. Shows them and \
            asks whether to submit (--yes submits); submitted readings are queued and uploaded at once. A \
            reading read twice is queued once. Needs a session (`vitalsnap session start`). A passive reader \
            running beside it waits until this read ends.

            Exit status: 0 readings queued, 3 queued but not all uploaded yet, 5 not submitted at the prompt, \
            20 communication failure (nothing half-read is queued), 21 connection failure, 22 must be paired \
            first, 23 Bluetooth off or BlueZ not running, 24 no new reading, 25 no session, 26 not found or not \
            connected in time, 27 no reading in time, 28 a device VitalSnap cannot read, 130 cancelled.

            Examples:
              vitalsnap ble read 30
              vitalsnap ble read 2 --yes --json
              vitalsnap ble read 1000 --connection-timeout 120
            """)

    /// Exit status when the person (or a script without --yes) does not submit the readings; as `read`'s cancel.
    static let notSubmittedStatus: Int32 = 5

    @Argument(help: "The peripheral's id (see `vitalsnap ble peripherals`).") var id: Int
    @Flag(help: "Submit the readings without asking.") var yes = false
    @Flag(help: "Print the result as one JSON object on stdout.") var json = false
    @OptionGroup var ble: BLEOptions
    @OptionGroup var state: StateOptions

    func run() async throws {
        state.bootstrapLogging()
        let peripheral = try BLEOptions.peripheral(id)
        do {
            let summary = try await read(peripheral)
            if summary.queued.isEmpty, summary.alreadyQueued == 0 {
                throw BLEFailure(.noReading(summary.skipped.map(\.description).joined(separator: "; ")))
            }
        } catch let failure as BLEFailure {
            throw failure.exit(json: json)
        } catch let error as BLEError {
            throw BLEFailure(error).exit(json: json)
        }
    }

    private func read(_ peripheral: BLEPeripheral) async throws -> BLERecordDelivery.Summary {
        if case .unsupported(let why) = peripheral.readSupport { throw BLEError.unsupported("\(peripheral.name): \(why)") }
        guard let session = try state.loadSession() else { throw BLEError.noUser }
        let queue = try state.openQueue()
        let directory = state.directory
        printError("\(peripheral.name) (peripheral \(peripheral.id)): \(peripheral.instructions)")

        // One Bluetooth operation at a time: a passive reader finishes its device, then waits for this one.
        let lock: BLEOperationLock
        do { lock = try BLEOperationLock(directory: directory) } catch { throw CLIError(error.description) }
        lock.lock()
        defer { lock.unlock() }

        let controller = try ble.controller()
        controller.onEvent = { event in
            if case .readyToRead = event { printError("ready: \(peripheral.readingInstructions)") }
            BLEEventText.print(event)
        }
        let interrupt = InterruptFlag()
        let watcher = Task.detached {
            while !Task.isCancelled {
                if interrupt.isRaised { controller.cancel() }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { watcher.cancel() }

        let anchors = BLEAnchorStore(directory: directory)
        let delivery = BLERecordDelivery(queue: queue, owner: session.ownerKey, anchors: anchors)
        let outcome = try controller.read(peripheral, anchor: { address in
            try? anchors.lastSequenceNumber(peripheralID: peripheral.id, address: address)
        })
        let readings = delivery.readings(outcome)
        for reading in readings {
            switch reading {
            case .record(let record): printError("  \(BLEReadingText.describe(record))")
            case .skipped(let reason): printError("  skipped: \(reason)")
            }
        }
        if readings.contains(where: { $0.record != nil }) {
            do {
                try Confirmation.confirm("Submit \(readings.compactMap(\.record).count) reading(s)?", assumeYes: yes)
            } catch {
                // Not submitted: nothing queued and the anchor not moved, so the next read offers them again.
                printError("not submitted: \(error)")
                throw ExitCode(Self.notSubmittedStatus)
            }
        }
        let summary: BLERecordDelivery.Summary
        do { summary = try delivery.deliver(outcome, readings: readings) } catch { throw CLIError("\(error)") }
        var remaining = 0
        if !summary.queued.isEmpty {
            let upload = try await UploadRun.run(queue: queue, session: session, options: state, policy: UploadRun.impatient)
            remaining = upload.remaining
            printError(UploadRun.describe(upload))
        }
        printResult(outcome, summary)
        if remaining > 0 { throw ExitCode(UploadRun.recordsRemainStatus) }
        return summary
    }

    private func printResult(_ outcome: BLEReadOutcome, _ summary: BLERecordDelivery.Summary) {
        if json {
            print(JSONText.object([
                ("status", .string("queued")), ("peripheral", .int(outcome.peripheral.id)), ("address", .string(outcome.address)),
                ("values", .int(outcome.payloads.count)), ("queued", .int(summary.queued.count)),
                ("alreadyQueued", .int(summary.alreadyQueued)), ("skipped", .array(summary.skipped.map { .string($0.description) })),
                ("records", .array(summary.queued.map { .string(BLEReadingText.describe($0)) })),
            ]).render(pretty: false))
        } else {
            print("\(summary.queued.count) reading\(summary.queued.count == 1 ? "" : "s") queued from \(outcome.peripheral.name) \(outcome.address)"
                + (summary.alreadyQueued > 0 ? ", \(summary.alreadyQueued) already queued" : ""))
        }
    }
}

/// A record in one line, for people.
enum BLEReadingText {
    static func describe(_ record: Record) -> String {
        let time = record.header.timestampText
        switch record {
        case .diabetes(let r):
            return "\(time) glucose \(r.displayedBloodGlucose.unit.format(r.displayedBloodGlucose.value)) \(r.displayedBloodGlucose.unit.rawValue)"
                + (r.relationshipToMeal.map { " (\($0.rawValue) meal)" } ?? "")
                + (r.header.extras[BLEExtrasKey.outOfRange].map { " [out of range: \($0)]" } ?? "")
        case .biometrics(let r):
            return "\(time) " + r.measurements.map { "\($0.field.rawValue) \(DecimalRounding.shortText($0.value))" }.joined(separator: ", ")
        case .weight(let r):
            return "\(time) weight \(DecimalRounding.shortText(r.weight)) kg"
        default:
            return "\(time) \(record.type.rawValue)"
        }
    }
}
