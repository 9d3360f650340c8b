import Synchronization

/// A flag another thread (a SIGINT handler's dispatch source, say) sets to end a capture cleanly.
///
/// `V4L2Camera` is not thread-safe and its `stop()` must run on the thread that takes the frames, because that
/// thread may be reading a mapped buffer. So Ctrl-C only calls `request()`: the blocked `nextFrame()` notices
/// within one poll slice (100 ms by default), releases everything (stream off, buffers unmapped, device
/// closed) and returns nil, which ends the loop like the end of a replay.
public final class CaptureStopRequest: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func request() { flag.store(true, ordering: .relaxed) }

    public var isRequested: Bool { flag.load(ordering: .relaxed) }
}
