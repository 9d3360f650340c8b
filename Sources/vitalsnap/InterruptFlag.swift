import Dispatch
import Foundation
import VitalSnapCapture

/// Ctrl-C during a live reading: the loop checks it between frames, and a camera blocked waiting for a frame
/// notices it within a poll slice, so the stream stops cleanly (buffers released, device closed) instead of the
/// process dying mid-stream.
final class InterruptFlag {
    let stopRequest = CaptureStopRequest()
    private let source: DispatchSourceSignal

    /// Takes over SIGINT for the life of this object.
    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [stopRequest] in stopRequest.request() }
        source.resume()
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    var isRaised: Bool { stopRequest.isRequested }
}
