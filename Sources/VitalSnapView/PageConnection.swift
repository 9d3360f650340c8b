import Foundation
import Hummingbird
import HummingbirdWebSocket
import VitalSnapImaging

/// One open page: sends it what changed (JSON) and the newest frame (JPEG, only once it has drawn the last one),
/// and hands its commands to the hub. What it holds beyond the hub's one frame is one frame being encoded.
struct PageConnection: Sendable {
    let hub: ViewHub
    let frameQuality: Int
    /// The least time between two frames sent.
    let frameInterval: Duration

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, maximumMessageSize: Int) async throws {
        let (number, wakeups) = hub.open()
        defer { hub.close(number) }
        let state = PageState()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // The page's messages: commands, and "drawn" for the next frame.
                for try await message in inbound.messages(maxSize: maximumMessageSize) {
                    guard case .text(let text) = message, let command = ViewCommand(json: text[...]) else {
                        state.say("not a command the view knows")
                        hub.wake(number)
                        continue
                    }
                    if command == .drawn {
                        state.grantFrame()
                    } else if let refusal = hub.submit(command) {
                        state.say(refusal)
                    }
                    hub.wake(number)
                }
            }
            group.addTask {
                try await send(wakeups: wakeups, state: state, outbound: outbound)
            }
            // Either side ending (the page closed, or the view stopped) ends the page's connection.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Sends, on every wake-up, what changed since the last: the frames and their readings at the page's pace,
    /// the rest as it comes.
    private func send(wakeups: AsyncStream<Void>, state: PageState, outbound: WebSocketOutboundWriter) async throws {
        var sent = ViewSnapshot.Versions()
        var frameSent = 0
        let clock = ContinuousClock()
        var lastFrame = clock.now - frameInterval
        let encoder = JSONEncoder()
        func text<T: Encodable>(_ value: T) async throws {
            try await outbound.write(.text(String(decoding: try encoder.encode(value), as: UTF8.self)))
        }
        for await _ in wakeups {
            let shown = hub.snapshot()
            if shown.versions.session != sent.session, let session = shown.session { try await text(session) }
            if let said = state.takeSaid() { try await text(ViewNotice(message: said)) }
            if shown.versions.notice != sent.notice, let notice = shown.notice { try await text(notice) }
            if shown.versions.converged != sent.converged {
                if let converged = shown.converged { try await text(converged) } else { try await text(Withdrawn()) }
            }
            if shown.versions.frame != frameSent, shown.frame != nil, state.mayGetFrame {
                // The newest frame and its reading together, once the page has drawn the last, and not sooner
                // than the frame interval after it: a reader faster than the page gets the newest of its frames.
                let due = lastFrame + frameInterval
                if clock.now < due { try await clock.sleep(until: due) }
                let newest = hub.snapshot()
                if let image = newest.frame, let frameState = newest.frameState, state.takeFrameGrant() {
                    lastFrame = clock.now
                    let jpeg = (try? ImageEncoder.jpeg(image, quality: frameQuality)) ?? []
                    try await text(frameState)
                    try await outbound.write(.binary(ByteBuffer(bytes: jpeg)))
                    frameSent = newest.versions.frame
                }
            }
            if shown.versions.finished != sent.finished, let finished = shown.finished {
                try await text(finished)
                hub.finishedWasShown()
            }
            sent = shown.versions
        }
    }

    /// The steady reading withdrawn (retake).
    struct Withdrawn: Encodable {
        var type = "withdrawn"
    }
}
