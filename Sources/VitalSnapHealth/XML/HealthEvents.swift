/// A stretch of an export's parser events, recorded on the thread that reads the file (`health_tape.c`) and
/// replayed into a `HealthElementBuilder` wherever the elements are wanted: the reading thread then only
/// inflates, scans and copies bytes. A stretch holds whole top-level elements (but the last one of a document
/// that ends early), so stretches can be built on different threads.
struct HealthEvents: Sendable {
    /// The tape's bytes, in the layout `hx_tape_replay` reads.
    let bytes: [UInt8]
    /// Bytes of the file consumed when the last of them was recorded, for progress.
    let bytesRead: Int64
}
