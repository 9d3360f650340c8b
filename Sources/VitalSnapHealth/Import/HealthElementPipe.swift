import Foundation

/// Reading and importing in step on two cores: one thread inflates and parses the export and hands its elements
/// over in chunks; the importer's thread maps them and writes the queue. A few chunks may wait between them, so
/// memory stays bounded whichever side is slower.
final class HealthElementPipe: @unchecked Sendable {
    struct Chunk {
        var elements: [HealthElement]
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
    static func startReading(_ located: HealthExportLocator.Located) -> HealthElementPipe {
        let pipe = HealthElementPipe()
        let reading = Reading(located: located, pipe: pipe)
        let thread = Thread { reading.run() }
        thread.name = "vitalsnap.health.reader"
        thread.start()
        return pipe
    }

    /// The reading side's work; only its thread touches the stream and the parser.
    private final class Reading: @unchecked Sendable {
        let located: HealthExportLocator.Located
        let pipe: HealthElementPipe

        init(located: HealthExportLocator.Located, pipe: HealthElementPipe) {
            self.located = located
            self.pipe = pipe
        }

        func run() {
            var sanitizer: ExportSanitizer?
            var chunk: [HealthElement] = []
            chunk.reserveCapacity(HealthElementPipe.chunkSize)
            var failure: HealthImportError?
            do throws(HealthImportError) {
                let stream = ExportSanitizer(try located.open())
                sanitizer = stream
                let reader = try HealthXMLReader(stream)
                while let element = try reader.next() {
                    chunk.append(element)
                    if chunk.count == HealthElementPipe.chunkSize {
                        guard pipe.put(Chunk(elements: chunk, bytesRead: stream.consumed)) else { return }
                        chunk.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                // The parser counts lines without the DTD the sanitizer dropped; the person has the file.
                if case .malformedXML(let line, let message) = error, let sanitizer {
                    failure = .malformedXML(line: line + sanitizer.removedLines, message: message)
                } else {
                    failure = error
                }
            }
            let bytes = sanitizer?.consumed ?? 0
            if !chunk.isEmpty { _ = pipe.put(Chunk(elements: chunk, bytesRead: bytes)) }
            pipe.finish(Ending(error: failure, replacedCharacters: sanitizer?.replacedCharacters ?? 0, bytesRead: bytes))
        }
    }
}
