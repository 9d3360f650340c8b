import Foundation

/// What the reading thread found when it stopped: nothing (the end), or why it stopped early. Every pipe of an
/// import passes it on as it is.
struct HealthReadEnding {
    var error: HealthImportError?
    var replacedCharacters: Int
    var bytesRead: Int64
}

/// Chunks of work handed from one thread to the next, with a few waiting at most, so memory stays bounded
/// whichever side is slower; then how the giving side ended. The taking side may cancel: the giving side's next
/// `put` says so and it stops.
final class HealthPipe<Item>: @unchecked Sendable {
    struct Chunk {
        var items: [Item]
        /// Bytes of the file read when the chunk was made, for progress.
        var bytesRead: Int64
    }

    typealias Ending = HealthReadEnding

    let waitingChunks: Int
    private let condition = NSCondition()
    private var chunks: [Chunk] = []
    private var ending: Ending?
    private var cancelled = false

    init(waitingChunks: Int) {
        self.waitingChunks = waitingChunks
    }

    /// Giving side: waits while the taking side is behind; false once it has stopped taking.
    func put(_ chunk: Chunk) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= waitingChunks && !cancelled { condition.wait() }
        if cancelled { return false }
        chunks.append(chunk)
        condition.broadcast()
        return true
    }

    func finish(_ ending: Ending) {
        condition.lock()
        self.ending = ending
        condition.broadcast()
        condition.unlock()
    }

    /// Taking side: the next chunk, or nil once the giving side has finished and everything was taken.
    func take() -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && ending == nil { condition.wait() }
        guard !chunks.isEmpty else { return nil }
        let chunk = chunks.removeFirst()
        condition.broadcast()
        return chunk
    }

    /// Taking side: how the giving side ended (after `take` returned nil).
    var result: Ending? {
        condition.lock()
        defer { condition.unlock() }
        return ending
    }

    /// Taking side, when it stops early: the giving side stops too.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
