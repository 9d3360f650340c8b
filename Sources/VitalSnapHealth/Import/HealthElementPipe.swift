import Foundation

/// Reading and importing in step on two cores: one thread inflates and parses the export, prepares the elements
/// (`HealthElementPreparer`: mapped, records encoded) and hands them over in chunks; the importer's thread keeps
/// the import's state and writes the queue. A few chunks may wait between them, so memory stays bounded
/// whichever side is slower.
final class HealthElementPipe: @unchecked Sendable {
    /// An element, and its outcome when the preparer made it.
    struct Item {
        var element: HealthElement
        var prepared: HealthElementPreparer.Prepared?
    }

    struct Chunk {
        var items: [Item]
        /// Bytes of the file read when the chunk was made, for progress.
        var bytesRead: Int64
    }

    /// What the reading side found when it stopped: nothing (the end), or why it stopped early.
    struct Ending {
        var error: HealthImportError?
        var replacedCharacters: Int
        var bytesRead: Int64
    }

    /// Elements per chunk, and chunks that may wait: enough to keep both threads busy, little memory.
    static let chunkSize = 2048
    static let waitingChunks = 8

    private let condition = NSCondition()
    private var chunks: [Chunk] = []
    private var ending: Ending?
    private var cancelled = false

    /// Reading side: waits while the importer is behind; false once the importer has stopped taking.
    func put(_ chunk: Chunk) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= Self.waitingChunks && !cancelled { condition.wait() }
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

    /// Importer side: the next chunk, or nil once the reading side has finished and everything was taken.
    func take() -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && ending == nil { condition.wait() }
        guard !chunks.isEmpty else { return nil }
        let chunk = chunks.removeFirst()
        condition.broadcast()
        return chunk
    }

    /// Importer side: how reading ended (after `take` returned nil).
    var result: Ending? {
        condition.lock()
        defer { condition.unlock() }
        return ending
    }

    /// Importer side, when it stops early (the queue could not be written): the reading side stops too.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Reads `located` on a thread of its own, into the pipe.
    static func startReading(_ located: HealthExportLocator.Located, preparer: HealthElementPreparer) -> HealthElementPipe {
        let pipe = HealthElementPipe()
        let reading = Reading(located: located, preparer: preparer, pipe: pipe)
        let thread = Thread { reading.run() }
        thread.name = "vitalsnap.health.reader"
        thread.start()
        return pipe
    }

    /// The reading side's work; only its thread touches the stream and the parser.
    private final class Reading: @unchecked Sendable {
        let located: HealthExportLocator.Located
        let preparer: HealthElementPreparer
        let pipe: HealthElementPipe

        init(located: HealthExportLocator.Located, preparer: HealthElementPreparer, pipe: HealthElementPipe) {
            self.located = located
            self.preparer = preparer
            self.pipe = pipe
        }

        func run() {
            var reader: HealthXMLReader?
            var chunk: [Item] = []
            chunk.reserveCapacity(HealthElementPipe.chunkSize)
            var failure: HealthImportError?
            do throws(HealthImportError) {
                let opened = try HealthXMLReader(opening: located.open)
                reader = opened
                while let element = try opened.next() {
                    chunk.append(Item(element: element, prepared: preparer.prepare(element)))
                    if chunk.count == HealthElementPipe.chunkSize {
                        guard pipe.put(Chunk(items: chunk, bytesRead: opened.consumed)) else { return }
                        chunk.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                failure = error
            }
            let bytes = reader?.consumed ?? 0
            if !chunk.isEmpty { _ = pipe.put(Chunk(items: chunk, bytesRead: bytes)) }
            pipe.finish(Ending(error: failure, replacedCharacters: reader?.replacedCharacters ?? 0, bytesRead: bytes))
        }
    }
}
