import Dispatch
import Foundation
import VitalSnapCapture

/// Ctrl-C during a live reading: the loop checks it between frames, and a camera blocked waiting for a frame
/// notices it within a poll slice, so the stream stops cleanly (buffers released, device closed) instead of the
/// process dying mid-stream. Long-running services also take SIGTERM, as systemd stops them.
final class InterruptFlag: @unchecked Sendable {
    let stopRequest = CaptureStopRequest()
    private let signals: [Int32]
    private let sources: [DispatchSourceSignal]

    /// Takes over `signals` (SIGINT by default) for the life of this object.
    init(signals: [Int32] = [SIGINT]) {
        self.signals = signals
        sources = signals.map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }
        for source in sources {
            source.setEventHandler { [stopRequest] in stopRequest.request() }
            source.resume()
        }
    }

    deinit {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }

    var isRaised: Bool { stopRequest.isRequested }
}
