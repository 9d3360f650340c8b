import ArgumentParser
import Foundation
import VitalSnapCapture
import VitalSnapCore
import VitalSnapImaging
import VitalSnapOCR
import VitalSnapRecords

/// The main job: hold a meter to the camera, converge on its value, confirm it, queue the record with its crop.
struct ReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read a device's display live from a camera (or a replayed clip) and queue the record.",
        discussion: """
            Prints the peripheral's instructions, then one status line per frame: the partial reading, glare \
            over the digits with advice, and progress towards a steady reading. Frames are read as they arrive; \
            when reading is slower than the camera, the frames in between are dropped, never queued. Once \
            enough frames agree, shows the value, its unit and the saved crop of the display, and asks to \
            accept, edit or cancel (--yes accepts). The accepted record and the crop go into the upload queue, \
            and are uploaded at once when a session exists.

            With --view, the same reading is shown in a local web page (the capture view): the camera, the \
            peripheral's overlay, each frame's partial reading and glare, then the value and its crop to \
            accept, edit, retake or cancel there. The command prints `view: URL` on stderr and starts reading \
            once the page is open; the page listens on 127.0.0.1 only (--view-listen to choose another address) \
            and answers only requests that carry the URL's token.

            `vitalsnap --peripheral 9 --unit mmol` is the same as `vitalsnap read --peripheral 9 --unit mmol`.

            Exit status: 0 record queued (or a numeric display's reading shown), 1 the reader cannot run (its \
            models cannot be loaded or run) or the view cannot start, 2 no steady reading (the replay ended), 4 \
            --timeout passed, 5 cancelled at the prompt or on the page (or the page was closed), 6 the display \
            shows a word (LO, HI, Err) instead of a value, 130 Ctrl-C; \
            camera errors: 10 no such device, 11 permission denied, 12 device busy, 13 not a capture device, 14 \
            no usable format, 15 streaming failed or unreadable input.

            Examples:
              vitalsnap --peripheral 9 --unit mmol
              vitalsnap read -p 2 --device /dev/video1 --size 1920x1080
              vitalsnap read -p 101 --input Samples/clips/settle-glucose-g1 --yes
              vitalsnap read -p 9 --input meter.mjpeg --fps 15 --json --yes
              vitalsnap read --view -p 9 --unit mmol
            """)

    @OptionGroup var options: PeripheralOptions
    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var capture: CaptureOptions
    @Flag(help: "Accept the converged reading without asking.") var yes = false
    @Option(help: ArgumentHelp("Give up after this many seconds without a steady reading.", valueName: "s")) var timeout: Double?
    @Flag(help: "Print the final result as one JSON object on stdout.") var json = false
    @OptionGroup var view: ViewOptions
    @OptionGroup var state: StateOptions

    mutating func validate() throws {
        if let timeout, timeout <= 0 || !timeout.isFinite { throw ValidationError("--timeout must be positive") }
    }

    func run() async throws {
        state.bootstrapLogging()
        let setting = try options.resolve()
        if view.view { return try await readWithView(setting) }
        let peripheral = setting.peripheral
        let out = LiveOutput(json: json)
        out.status("\(peripheral.manufacturer) \(peripheral.model) (peripheral \(peripheral.id)): \(peripheral.instructions)")

        let interrupt = InterruptFlag()
        let source: FrameSource
        do { source = try capture.openSource(stopRequest: interrupt.stopRequest) } catch {
            throw out.fail(error.description, status: Self.exitStatus(for: error))
        }
        out.status("reading from \(source.name)")
        var live = LiveReader(peripheral: peripheral, unit: setting.unit, reader: try readerOptions.choice())
        let started = Date()
        var frames = 0
        var reasons: FrameReasons = [:]
        var converged: ConvergedReading?
        defer { source.stop() }
        while converged == nil {
            if interrupt.isRaised { out.endStatus(); throw out.fail("cancelled (Ctrl-C); nothing was saved", status: 130) }
            if let timeout, Date().timeIntervalSince(started) > timeout {
                out.endStatus()
                throw out.fail(Self.timeoutMessage(timeout, frames: frames, reasons: reasons), status: 4)
            }
            let frame: Frame?
            do { frame = try source.nextFrame() } catch { out.endStatus(); throw out.fail(error.description, status: Self.exitStatus(for: error)) }
            guard let frame else { break }
            frames += 1
            let step: LiveReader.Step
            do { step = try live.process(frame.image, timestamp: frame.timestamp) } catch {
                out.endStatus()
                throw out.fail(error.description, status: 1)
            }
            Self.tally(step, frame: frames, in: &reasons)
            out.frameStatus(Self.statusLine(step, frame: frame, policy: live.converger.policy))
            converged = step.update.final
        }
        source.stop()
        out.endStatus()
        if converged == nil && interrupt.isRaised { throw out.fail("cancelled (Ctrl-C); nothing was saved", status: 130) }
        guard let final = converged else {
            throw out.fail(Self.endedMessage(source.name, frames: frames, reasons: reasons), status: 2)
        }
        let elapsed = Date().timeIntervalSince(started)
        var summary: [String: Any] = [
            "peripheral": peripheral.id, "frames": frames, "frames_to_convergence": final.framesToConvergence,
            "dropped_frames": source.droppedFrames, "elapsed": (elapsed * 1000).rounded() / 1000, "reading": final.readingString,
        ]
        if let word = final.word {
            summary["status"] = "word"
            summary["word"] = word
            out.result(summary, text: "the display shows \(word): no value to record")
            throw ExitCode(6)
        }
        try await accept(final, live: live, peripheral: peripheral, summary: summary, out: out)
    }

    /// Shows the converged value, asks, and queues the record with its crop.
    private func accept(
        _ final: ConvergedReading, live: LiveReader, peripheral: PeripheralDefinition, summary: [String: Any], out: LiveOutput
    ) async throws {
        var summary = summary
        var values = final.values
        let shown = Self.describe(values)
        guard peripheral.type != .numericDisplay else {
            summary["status"] = "read"
            summary["values"] = values.map(Self.json)
            out.result(summary, text: "read \(shown) (a numeric display: no health record)")
            return
        }
        let crop = saveCrop(live, out: out)
        out.status("read \(shown)\(crop.path.map { "; crop saved to \($0)" } ?? "")")
        if !yes {
            switch try Prompt.acceptEditOrCancel(values, peripheral: peripheral) {
            case .accept: break
            case .edited(let edited): values = edited
            case .cancel:
                summary["status"] = "cancelled"
                out.result(summary, text: "cancelled: nothing was queued")
                throw ExitCode(5)
            }
        }
        do {
            let (queued, text) = try await queue(values, final: final, crop: crop, live: live, peripheral: peripheral, summary: summary)
            out.result(queued, text: text)
        } catch let failure as ReadFailure {
            throw out.fail(failure.message, status: failure.status)
        }
    }

    /// The crop of the display the reading converged on, as PNG, saved beside the queue (its path, nil where it
    /// could not be saved), and the activity ID its record will have.
    func saveCrop(_ live: LiveReader, out: LiveOutput) -> SavedCrop {
        let crop = live.bestCrop
        // Encoded once: the same PNG is saved for the user and queued with the record.
        let png = crop.flatMap { try? Data(ImageEncoder.png($0.image)) }
        let directory = state.directory
        var cropPath: String?
        let activityID = ActivityID.generate()
        if let png {
            do {
                try directory.create()
                let folder = directory.path + "/captures"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                let path = folder + "/\(activityID).png"
                try ImageEncoder.write([UInt8](png), to: path)
                cropPath = path
            } catch {
                out.status("the crop could not be saved: \(error)")
            }
        }
        return SavedCrop(png: png, path: cropPath, activityID: activityID)
    }

    struct SavedCrop {
        var png: Data?
        var path: String?
        var activityID: String
    }

    /// Queues the record of `values` with its crop, and uploads it when a session exists: the summary and the
    /// line that say what happened. Throws `ReadFailure` where no record could be made or queued.
    func queue(
        _ values: [FieldValue], final: ConvergedReading, crop saved: SavedCrop, live: LiveReader, peripheral: PeripheralDefinition,
        summary: [String: Any]
    ) async throws -> (summary: [String: Any], text: String) {
        var summary = summary
        let crop = live.bestCrop
        let reading = Reading(outcome: .values(values), confidence: final.confidence, recognizedText: crop?.text ?? final.readingString, lines: [])
        let capture: OCRCapture
        do {
            capture = try RecordBuilder(peripheral: peripheral).capture(
                reading, crop: crop?.image ?? GrayImage(width: 1, height: 1), displayRegion: crop?.region, glare: crop?.glare ?? .none,
                timestamp: Date(), activityID: saved.activityID)
        } catch {
            throw ReadFailure("no record: \(error)", status: 1)
        }
        let queue: UploadQueue, session: UserSession?
        do {
            queue = try state.openQueue()
            session = try state.loadSession()
            try queue.submit(capture.record, image: saved.png, owner: session?.ownerKey)
        } catch {
            throw ReadFailure("not queued: \(error)", status: 1)
        }
        summary["status"] = "queued"
        summary["values"] = values.map(Self.json)
        summary["record_type"] = capture.record.type.rawValue
        summary["activity_id"] = capture.record.activityID
        summary["crop"] = saved.path ?? NSNull()
        guard let session else {
            summary["uploaded"] = false
            return (summary, "queued \(Self.describe(values)) (activity id \(capture.record.activityID)); it will be uploaded when a session starts (`vitalsnap session start`)")
        }
        let result = try await UploadRun.run(queue: queue, session: session, options: state, policy: UploadRun.impatient)
        summary["uploaded"] = result.remaining == 0
        return (summary, "queued \(Self.describe(values)) (activity id \(capture.record.activityID)); \(UploadRun.describe(result))")
    }

    static func describe(_ values: [FieldValue]) -> String {
        values.map { "\($0.text)\($0.unit.isEmpty ? "" : " \($0.unit)")" }.joined(separator: " / ")
    }

    static func json(_ value: FieldValue) -> [String: Any] {
        ["field": value.field.rawValue, "value": value.value, "text": value.text, "unit": value.unit]
    }

    static func statusLine(_ step: LiveReader.Step, frame: Frame, policy: ConvergencePolicy) -> String {
        let update = step.update
        let guess = update.partial.bestWord ?? (update.partial.bestGuess.isEmpty ? "-" : describe(update.partial.bestGuess))
        let filled = min(policy.requiredVotes, update.agreeingVotes)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: policy.requiredVotes - filled)
        var line = "frame \(frame.sequence): \(guess)  [\(bar)] \(filled)/\(policy.requiredVotes)"
        switch update.partial.status {
        case .vote: break
        case .glareOverDigits: line += "  " + (reason(step) ?? "")
        default: line += "  (\(reason(step) ?? ""))"
        }
        if update.isBlocked { line += "  frames disagree" }
        return line
    }

    /// Why a frame did not count towards a steady reading, in words; nil when it did.
    static func reason(_ step: LiveReader.Step) -> String? {
        switch step.update.partial.status {
        case .vote: nil
        case .glareOverDigits: "glare over the digits: tilt the display away from the light"
        case .unreadable(let why): why
        case .lowConfidence: "unclear: hold it still and closer"
        case .incomplete: "not every value seen"
        case .implausible(let field): step.frameResult.message ?? "implausible \(field.rawValue)"
        }
    }

    /// Why frames gave no reading: per reason, how many frames gave it and the last frame that did.
    typealias FrameReasons = [String: (frames: Int, last: Int)]

    static func count(_ reason: String, frame: Int, in reasons: inout FrameReasons) {
        let seen = reasons[reason]?.frames ?? 0
        reasons[reason] = (seen + 1, frame)
    }

    /// Counts why frame `frame` gave no vote, if it gave none (unreadable, or implausible with its message).
    static func tally(_ step: LiveReader.Step, frame: Int, in reasons: inout FrameReasons) {
        switch step.update.partial.status {
        case .unreadable(let why): count(why, frame: frame, in: &reasons)
        case .implausible: if let why = step.frameResult.message { count(why, frame: frame, in: &reasons) }
        default: break
        }
    }

    /// The message of a reading that found no steady value within `timeout` seconds.
    static func timeoutMessage(_ timeout: Double, frames: Int, reasons: FrameReasons) -> String {
        "no steady reading after \(DecimalRounding.shortText(timeout)) s (\(frames) frames)\(commonReason(reasons)); hold the display still, facing the camera"
    }

    /// The message of a source that ended before a steady value.
    static func endedMessage(_ source: String, frames: Int, reasons: FrameReasons) -> String {
        "\(source) ended after \(frames) frames without a steady reading\(commonReason(reasons))"
    }

    /// The reason most frames gave; of reasons as common, the one the display gave last (a dictionary's order
    /// would pick one at random in each run).
    static func commonReason(_ reasons: FrameReasons) -> String {
        guard let top = reasons.max(by: { ($0.value.frames, $0.value.last) < ($1.value.frames, $1.value.last) }) else {
            return ""
        }
        return "; most frames: \(top.key)"
    }

    static func exitStatus(for error: CaptureError) -> Int32 {
        switch error {
        case .noSuchDevice: 10
        case .permissionDenied: 11
        case .deviceBusy: 12
        case .notACaptureDevice: 13
        case .noUsableFormat: 14
        case .streamFailed, .unreadableInput: 15
        }
    }
}

/// Why a reading ended without a record: the message and the exit status.
struct ReadFailure: Error {
    var message: String
    var status: Int32
    init(_ message: String, status: Int32) {
        self.message = message
        self.status = status
    }
}

/// Status lines on stderr (rewritten in place on a terminal) and the final result (text, or JSON on stdout).
struct LiveOutput {
    let json: Bool
    let terminal = isatty(STDERR_FILENO) != 0

    func status(_ text: String) { printError(text) }

    func frameStatus(_ text: String) {
        if terminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        } else {
            printError(text)
        }
    }

    func endStatus() {
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    func result(_ object: [String: Any], text: String) {
        if json {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(text)
        }
    }

    /// Reports `message` (as JSON too with --json) and returns the exit to throw.
    func fail(_ message: String, status: Int32) -> ExitCode {
        printError("Error: \(message)")
        if json { result(["status": "failed", "message": message, "exit": status], text: "") }
        return ExitCode(status)
    }
}

/// Asks on the terminal whether to accept, edit or cancel a reading.
enum Prompt {
    enum Answer {
        case accept
        case edited([FieldValue])
        case cancel
    }

    static func acceptEditOrCancel(_ values: [FieldValue], peripheral: PeripheralDefinition) throws -> Answer {
        guard isatty(STDIN_FILENO) != 0 else {
            throw CLIError("not on a terminal, so nobody can confirm the reading: add --yes to accept it")
        }
        while true {
            FileHandle.standardError.write(Data("Accept \(ReadCommand.describe(values))? [a]ccept, [e]dit, [c]ancel: ".utf8))
            guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return .cancel }
            switch answer {
            case "a", "accept", "y", "yes", "": return .accept
            case "c", "cancel", "n", "no": return .cancel
            case "e", "edit":
                FileHandle.standardError.write(Data("Value as the display shows it (\(values.map(\.text).joined(separator: "/"))): ".utf8))
                guard let text = readLine() else { return .cancel }
                // Checked as the capture view checks an edit: the reading's shape, the fields' plausible ranges.
                switch ReadingCorrection.corrected(text, replacing: values, peripheral: peripheral) {
                case .success(let corrected): return .edited(corrected)
                case .failure(let refusal):
                    printError(refusal.description)
                    continue
                }
            default: continue
            }
        }
    }
}
