import ArgumentParser
import Foundation
import Logging
import VitalSnapCapture
import VitalSnapImaging
import VitalSnapOCR
import VitalSnapRecords
import VitalSnapView

/// `vitalsnap read --view`: the same reading as on the terminal, shown and decided in the capture view. The
/// frames are read on a thread of their own while the view's server answers its pages; the reading, the record
/// and the exit statuses are the terminal flow's.
extension ReadCommand {
    func readWithView(_ setting: ReaderSetting) async throws {
        let peripheral = setting.peripheral
        let out = LiveOutput(json: json)
        let hub = ViewHub()
        let overlay = try? options.catalogOption.catalog().overlayImageURL(for: peripheral.id)
            .flatMap { FileManager.default.contents(atPath: $0.path) }.map { [UInt8]($0) }
        var logger = Logger(label: "vitalsnap.view")
        // Stopping the server with pages still connected is logged as an error by Hummingbird: not one here.
        logger.logLevel = .critical
        let server: CaptureViewServer
        let url: URL
        do {
            server = try CaptureViewServer(
                peripheral: peripheral, overlayPNG: overlay, hub: hub, configuration: view.configuration, logger: logger)
            url = try await server.start()
        } catch {
            throw out.fail("the capture view cannot start: \(error)", status: 1)
        }
        if view.listensBeyondLoopback {
            printError("warning: the view listens on \(view.configuration.listenAddress): anyone who can reach this machine and has the URL sees the camera and can accept readings")
        }
        printError("view: \(url.absoluteString)")
        out.status("\(peripheral.manufacturer) \(peripheral.model) (peripheral \(peripheral.id)): \(peripheral.instructions)")

        let end = await viewedReading(setting, hub: hub, url: url, out: out)
        hub.show(end.finished)
        // The page shows how it ended before the view stops (or, with no page open, a while for one to open).
        await hub.waitUntilFinishedIsShown(timeout: .seconds(hub.hasOpenPage ? 5 : 10))
        await server.stop()
        if let result = end.result {
            out.result(result.summary, text: result.text)
        } else if end.finished.exitStatus != 0 {
            throw out.fail(end.finished.message, status: end.finished.exitStatus)
        }
        if end.finished.exitStatus != 0 { throw ExitCode(end.finished.exitStatus) }
    }

    /// How a viewed reading ended: what the page shows, and the result for stdout where there is one.
    struct ViewedEnd {
        var finished: ViewFinished
        var result: (summary: [String: Any], text: String)?
    }

    private func viewedReading(_ setting: ReaderSetting, hub: ViewHub, url: URL, out: LiveOutput) async -> ViewedEnd {
        let peripheral = setting.peripheral
        func failed(_ message: String, _ status: Int32, outcome: String = "error") -> ViewedEnd {
            ViewedEnd(finished: ViewFinished(outcome: outcome, message: message, exitStatus: status))
        }
        let interrupt = InterruptFlag()
        let source: FrameSource
        do { source = try capture.openSource(stopRequest: interrupt.stopRequest) } catch {
            return failed(error.description, Self.exitStatus(for: error))
        }
        defer { source.stop() }
        let live: LiveBox
        do {
            live = LiveBox(LiveReader(peripheral: peripheral, unit: setting.unit, reader: try readerOptions.choice()))
        } catch {
            return failed("\(error)", 1)
        }
        // The view is where the reading is followed and decided: it starts once a page is open.
        if !hub.hasOpenPage {
            out.status("open \(url) in a browser to start")
            await hub.waitForPage()
        }
        hub.show(ViewSession(
            peripheral: "\(peripheral.manufacturer) \(peripheral.model) (peripheral \(peripheral.id))",
            instructions: peripheral.instructions, requiredVotes: live.reader.converger.policy.requiredVotes, source: source.name))
        out.status("reading from \(source.name)")
        let started = Date()
        var converged = 0
        while true {
            let frames = await FrameLoop(command: self, source: source, live: live, hub: hub, interrupt: interrupt, started: started, out: out).run()
            let final: ConvergedReading
            switch frames {
            case .converged(let reading): final = reading
            case .cancelled:
                return ViewedEnd(
                    finished: ViewFinished(outcome: "cancelled", message: "Cancelled: nothing was queued.", exitStatus: 5),
                    result: (["status": "cancelled", "peripheral": peripheral.id], "cancelled: nothing was queued"))
            case .interrupted: return failed("cancelled (Ctrl-C); nothing was saved", 130, outcome: "cancelled")
            case .timedOut(let message): return failed(message, 4, outcome: "timeout")
            case .ended(let message):
                return ViewedEnd(finished: ViewFinished(
                    outcome: "no-reading", message: message,
                    advice: "Hold the display still and facing the camera, out of the light's reflection, and start again.",
                    exitStatus: 2))
            case .captureFailed(let error): return failed(error.description, Self.exitStatus(for: error))
            case .readerFailed(let error): return failed(error.description, 1)
            }
            let summary: [String: Any] = [
                "peripheral": peripheral.id, "frames": live.frames, "frames_to_convergence": final.framesToConvergence,
                "dropped_frames": source.droppedFrames, "elapsed": (Date().timeIntervalSince(started) * 1000).rounded() / 1000,
                "reading": final.readingString,
            ]
            if let word = final.word {
                var summary = summary
                summary["status"] = "word"
                summary["word"] = word
                let text = "the display shows \(word): no value to record"
                return ViewedEnd(finished: ViewFinished(outcome: "word", message: text, exitStatus: 6), result: (summary, text))
            }
            let shown = Self.describe(final.values)
            guard peripheral.type != .numericDisplay else {
                var summary = summary
                summary["status"] = "read"
                summary["values"] = final.values.map(Self.json)
                let text = "read \(shown) (a numeric display: no health record)"
                return ViewedEnd(finished: ViewFinished(outcome: "read", message: text, exitStatus: 0), result: (summary, text))
            }
            let crop = saveCrop(live.reader, out: out)
            out.status("read \(shown)\(crop.path.map { "; crop saved to \($0)" } ?? "")")
            converged += 1
            hub.show(
                ViewConverged(
                    value: final.readingString, unit: Self.units(final.values), editHint: ReadingCorrection.hint(for: final.values),
                    number: converged),
                crop: crop.png.map { [UInt8]($0) } ?? [])
            // The page decides: queue these values, or read again.
            var queued: [FieldValue]? = yes ? final.values : nil
            var retake = false
            while queued == nil && !retake {
                switch await hub.decision() {
                case .accept:
                    queued = final.values
                case .edit(let text):
                    switch ReadingCorrection.corrected(text, replacing: final.values, peripheral: peripheral) {
                    case .success(let corrected):
                        queued = corrected
                    case .failure(let refusal):
                        // Refused on the page, which keeps the steady reading to decide on again.
                        hub.awaitDecisionAgain()
                        hub.show(ViewNotice(message: "Not taken: \(refusal.description)."))
                    }
                case .retake:
                    retake = true
                case .cancel, .pageClosed:
                    var summary = summary
                    summary["status"] = "cancelled"
                    return ViewedEnd(
                        finished: ViewFinished(outcome: "cancelled", message: "Cancelled: nothing was queued.", exitStatus: 5),
                        result: (summary, "cancelled: nothing was queued"))
                }
            }
            guard let values = queued else {
                // Retake: the steady reading is dropped and the frames read again from the next one.
                hub.withdrawConverged()
                live.reader.reset()
                out.status("reading again")
                continue
            }
            do {
                let (queued, text) = try await queue(
                    values, final: final, crop: crop, live: live.reader, peripheral: peripheral, summary: summary)
                return ViewedEnd(finished: ViewFinished(outcome: "queued", message: Self.sentence(text), exitStatus: 0), result: (queued, text))
            } catch let failure as ReadFailure {
                return failed(failure.message, failure.status)
            } catch {
                return failed("\(error)", 1)
            }
        }
    }

    /// `mg/dL`, or each field's unit (`mmHg / mmHg / bpm`).
    static func units(_ values: [FieldValue]) -> String {
        let units = values.map(\.unit)
        return Set(units).count == 1 ? units[0] : units.joined(separator: " / ")
    }

    /// A result line as a sentence for the page.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }
}

/// The live reader, shared with the thread that reads the frames.
final class LiveBox: @unchecked Sendable {
    var reader: LiveReader
    /// Frames read since the start.
    var frames = 0
    var reasons: ReadCommand.FrameReasons = [:]

    init(_ reader: LiveReader) { self.reader = reader }
}

/// Reads frames on a thread of its own until they converge, showing each in the view.
struct FrameLoop: @unchecked Sendable {
    enum End {
        case converged(ConvergedReading)
        case cancelled
        case interrupted
        case timedOut(String)
        case ended(String)
        case captureFailed(CaptureError)
        case readerFailed(ReaderStageError)
    }

    let command: ReadCommand
    let source: FrameSource
    let live: LiveBox
    let hub: ViewHub
    let interrupt: InterruptFlag
    let started: Date
    let out: LiveOutput

    func run() async -> End {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.loop()) }
            // The reader's recursion-free but deep-stacked stages, as the batch's threads have them.
            thread.stackSize = 4 << 20
            thread.name = "vitalsnap-read"
            thread.start()
        }
    }

    private func loop() -> End {
        var rate = ReadRate()
        defer { out.endStatus() }
        while true {
            if interrupt.isRaised { return .interrupted }
            if hub.isCancelled { return .cancelled }
            if let timeout = command.timeout, Date().timeIntervalSince(started) > timeout {
                return .timedOut(ReadCommand.timeoutMessage(timeout, frames: live.frames, reasons: live.reasons))
            }
            let next: Frame?
            do { next = try source.nextFrame() } catch { return .captureFailed(error) }
            guard let frame = next else {
                if interrupt.isRaised { return .interrupted }
                return .ended(ReadCommand.endedMessage(source.name, frames: live.frames, reasons: live.reasons))
            }
            live.frames += 1
            let step: LiveReader.Step
            do { step = try live.reader.process(frame.image, timestamp: frame.timestamp) } catch { return .readerFailed(error) }
            ReadCommand.tally(step, frame: live.frames, in: &live.reasons)
            let policy = live.reader.converger.policy
            out.frameStatus(ReadCommand.statusLine(step, frame: frame, policy: policy))
            rate.add(Date())
            hub.show(frame: frame.image, state: Self.state(step, frame: frame, policy: policy, rate: rate.perSecond))
            if let final = step.update.final { return .converged(final) }
        }
    }

    static func state(_ step: LiveReader.Step, frame: Frame, policy: ConvergencePolicy, rate: Double) -> ViewFrameState {
        let partial = step.update.partial
        let guess = partial.bestWord ?? (partial.bestGuess.isEmpty ? "" : ReadCommand.describe(partial.bestGuess))
        let glare = step.glareInFrame  // computed on each use: once here
        return ViewFrameState(
            sequence: frame.sequence, width: frame.image.width, height: frame.image.height, partial: partial.recognizedText,
            guess: guess, votes: min(policy.requiredVotes, step.update.agreeingVotes), requiredVotes: policy.requiredVotes,
            reason: ReadCommand.reason(step) ?? (step.update.isBlocked ? "frames disagree: hold the display still" : nil),
            glare: glare.regions, glareAdvice: glare.advice, readRate: rate)
    }
}

/// Frames read per second over the last two seconds.
struct ReadRate {
    private var times: [Date] = []

    mutating func add(_ time: Date) {
        times.append(time)
        times.removeAll { time.timeIntervalSince($0) > 2 }
    }

    var perSecond: Double {
        guard let first = times.first, let last = times.last, times.count > 1 else { return 0 }
        let span = last.timeIntervalSince(first)
        return span > 0 ? Double(times.count - 1) / span : 0
    }
}
