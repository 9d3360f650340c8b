import Foundation

/// An import's work on several threads, so that both cores are busy whichever part is slower on an export:
/// reading (inflate, scan, record parser events) → preparing, on `preparingThreads` threads taking stretches of
/// events in turn (build elements from the events; then `HealthElementPreparer`: map, encode records) → the
/// importer's own thread (anchors, totals, pulses, the queue), which takes the prepared stretches in the order
/// they were read. A prepared chunk holds its stretch's items last first (see `lastFirst`). Every String of an
/// element is made on a preparing thread.
///
/// Pipes with a few chunks between the threads keep memory bounded; a stage that stops taking cancels the ones
/// before it.
enum HealthImportStages {
    typealias Item = HealthElementPreparer.Prepared

    /// Chunks that may wait in each pipe: two keep the threads busy; more only hold memory (a prepared chunk
    /// is a few MB of records and their JSON).
    static let waitingChunks = 2

    /// Preparing threads. Preparing (building elements, encoding records) is the most work per element on
    /// exports full of samples that make records; with one thread for it, the reader and the importer waited
    /// on it for a third of the time.
    static let preparingThreads = 2

    /// Starts reading and preparing `located`, each preparing thread with a preparer `makePreparer` makes; the
    /// importer takes the prepared items, in order, from what is returned.
    static func start(_ located: HealthExportLocator.Located, makePreparer: () -> HealthElementPreparer) -> InOrder {
        let events = (0..<preparingThreads).map { _ in HealthPipe<HealthEvents>(waitingChunks: waitingChunks) }
        let prepared = (0..<preparingThreads).map { _ in HealthPipe<Item>(waitingChunks: waitingChunks) }
        let forReading = HandedOver(value: located)
        let reading = Thread { read(forReading.value, into: events) }
        reading.name = "vitalsnap.health.reader"
        for index in 0..<preparingThreads {
            let forPreparing = HandedOver(value: makePreparer())
            let preparing = Thread { prepare(from: events[index], with: forPreparing.value, into: prepared[index]) }
            preparing.name = "vitalsnap.health.preparer\(index + 1)"
            preparing.start()
        }
        reading.start()
        return InOrder(pipes: prepared)
    }

    /// The prepared chunks of the preparing threads, in the order they were read: the reader hands its
    /// stretches to the threads in turn, and they are taken in the same turn.
    final class InOrder {
        private let pipes: [HealthPipe<Item>]
        private var next = 0

        init(pipes: [HealthPipe<Item>]) {
            self.pipes = pipes
        }

        /// The next chunk; nil once the reading side has finished and everything was taken (the pipe whose turn
        /// it is has nothing more: the chunk that would be next was never read).
        func take() -> HealthPipe<Item>.Chunk? {
            guard let chunk = pipes[next].take() else { return nil }
            next = (next + 1) % pipes.count
            return chunk
        }

        /// How the reading side ended (after `take` returned nil): every pipe carries the same.
        var result: HealthReadEnding? { pipes[next].result }

        /// The importer stops early: every thread before it stops too.
        func cancel() {
            for pipe in pipes { pipe.cancel() }
        }
    }

    /// The reading thread: only it touches the stream and the parser.
    private static func read(_ located: HealthExportLocator.Located, into pipes: [HealthPipe<HealthEvents>]) {
        var reader: HealthXMLReader?
        var failure: HealthImportError?
        var turn = 0
        do throws(HealthImportError) {
            let opened = try HealthXMLReader(opening: located.open)
            reader = opened
            while let events = try opened.nextEvents() {
                guard pipes[turn].put(.init(items: [events], bytesRead: events.bytesRead)) else { break }
                turn = (turn + 1) % pipes.count
            }
        } catch {
            failure = error
        }
        // Every preparing thread is told, also when one stopped taking: the others may be waiting.
        let ending = HealthReadEnding(
            error: failure, replacedCharacters: reader?.replacedCharacters ?? 0, bytesRead: reader?.consumed ?? 0)
        for pipe in pipes { pipe.finish(ending) }
    }

    /// A preparing thread: only it uses its builder and preparer.
    private static func prepare(
        from events: HealthPipe<HealthEvents>, with preparer: HealthElementPreparer, into pipe: HealthPipe<Item>
    ) {
        let builder = HealthElementBuilder()
        var elements: [HealthElement] = []
        while let chunk = events.take() {
            for stretch in chunk.items {
                builder.build(stretch, into: &elements)
                guard pipe.put(.init(items: lastFirst(elements, preparer.prepare), bytesRead: chunk.bytesRead)) else {
                    events.cancel()
                    return
                }
            }
        }
        pipe.finish(events.result ?? HealthReadEnding(error: nil, replacedCharacters: 0, bytesRead: 0))
    }
}

/// `transform` of each element, in order, stored last first: the importer takes them with `popLast`, which moves
/// each out of the chunk, where iterating copied each (retaining every string and buffer of its record) and
/// the chunk's end released them all again, on the thread that is most often the one the others wait for.
private func lastFirst<Element, Item>(_ elements: [Element], _ transform: (Element) -> Item) -> [Item] {
    [Item](unsafeUninitializedCapacity: elements.count) { buffer, count in
        for (index, element) in elements.enumerated() {
            (buffer.baseAddress! + (elements.count - 1 - index)).initialize(to: transform(element))
        }
        count = elements.count
    }
}

/// A value handed to the one thread that uses it from then on.
private struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
}
