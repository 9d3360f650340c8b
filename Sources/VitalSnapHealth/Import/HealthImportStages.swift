import Foundation

/// An import's work on three threads, so that both cores are busy whichever part is slower on an export:
/// reading (inflate, scan, build elements) → preparing (`HealthElementPreparer`: map, encode records) → the
/// importer's own thread (anchors, totals, pulses, the queue). Pipes with a few chunks between them keep
/// memory bounded; a stage that stops taking cancels the one before it.
enum HealthImportStages {
    /// An element, and its outcome when the preparer made it.
    struct Item {
        var element: HealthElement
        var prepared: HealthElementPreparer.Prepared?
    }

    /// Chunks that may wait in each pipe: two keep the threads busy; more only hold memory (a prepared chunk
    /// is a few MB of records and their JSON).
    static let waitingChunks = 2

    /// Starts reading and preparing `located`; the importer takes the prepared items from the pipe returned.
    static func start(_ located: HealthExportLocator.Located, preparer: HealthElementPreparer) -> HealthPipe<Item> {
        let elements = HealthPipe<HealthElement>(waitingChunks: waitingChunks)
        let prepared = HealthPipe<Item>(waitingChunks: waitingChunks)
        let forReading = HandedOver(value: located), forPreparing = HandedOver(value: preparer)
        let reading = Thread { read(forReading.value, into: elements) }
        reading.name = "vitalsnap.health.reader"
        let preparing = Thread { prepare(from: elements, with: forPreparing.value, into: prepared) }
        preparing.name = "vitalsnap.health.preparer"
        reading.start()
        preparing.start()
        return prepared
    }

    /// The reading thread: only it touches the stream and the parser.
    private static func read(_ located: HealthExportLocator.Located, into pipe: HealthPipe<HealthElement>) {
        var reader: HealthXMLReader?
        var chunk: [HealthElement] = []
        chunk.reserveCapacity(HealthPipe<HealthElement>.chunkSize)
        var failure: HealthImportError?
        do throws(HealthImportError) {
            let opened = try HealthXMLReader(opening: located.open)
            reader = opened
            while let element = try opened.next() {
                chunk.append(element)
                if chunk.count == HealthPipe<HealthElement>.chunkSize {
                    guard pipe.put(.init(items: chunk, bytesRead: opened.consumed)) else { return }
                    chunk.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            failure = error
        }
        let bytes = reader?.consumed ?? 0
        if !chunk.isEmpty { _ = pipe.put(.init(items: chunk, bytesRead: bytes)) }
        pipe.finish(.init(error: failure, replacedCharacters: reader?.replacedCharacters ?? 0, bytesRead: bytes))
    }

    /// The preparing thread: only it uses the preparer.
    private static func prepare(
        from elements: HealthPipe<HealthElement>, with preparer: HealthElementPreparer, into pipe: HealthPipe<Item>
    ) {
        while let chunk = elements.take() {
            let items = chunk.items.map { Item(element: $0, prepared: preparer.prepare($0)) }
            guard pipe.put(.init(items: items, bytesRead: chunk.bytesRead)) else {
                elements.cancel()
                return
            }
        }
        let ending = elements.result ?? .init(error: nil, replacedCharacters: 0, bytesRead: 0)
        pipe.finish(.init(error: ending.error, replacedCharacters: ending.replacedCharacters, bytesRead: ending.bytesRead))
    }
}

/// A value handed to the one thread that uses it from then on.
private struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
}
