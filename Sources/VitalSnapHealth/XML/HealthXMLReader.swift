import CHealthXML
import Foundation

/// The export's XML as a stream of top-level elements (`Record`, `Correlation`, `Workout`), parsed by libxml2's
/// push parser from a `ByteStream` a chunk at a time: no tree is built, so memory stays small whatever the
/// file's size. Everything else (`Me`, `ActivitySummary`, workout routes, clinical records) is passed over.
///
/// When the XML stops being well-formed, every element completed before that point is still handed on, then
/// the error (with its line). Libraries print nothing: libxml2's messages are caught by the C shim.
public final class HealthXMLReader {
    private let parser: OpaquePointer
    private let builder: HealthElementBuilder
    private let retained: Unmanaged<HealthElementBuilder>
    private let stream: ByteStream
    private let chunk: UnsafeMutableRawBufferPointer
    private var ready: [HealthElement] = []
    private var readyIndex = 0
    private var finished = false
    private var failure: HealthImportError?

    /// Bytes handed to the parser at a time.
    static let chunkSize = 256 * 1024
    /// Elements deeper than this are not reported (a correlation's samples' metadata is at 3; route points at 3
    /// are passed over by the builder).
    static let deepestReported: Int32 = 3

    public init(_ stream: ByteStream) throws(HealthImportError) {
        self.stream = stream
        builder = HealthElementBuilder()
        retained = Unmanaged.passRetained(builder)
        guard let parser = hx_parser_new(Self.startCallback, Self.endCallback, retained.toOpaque(), Self.deepestReported) else {
            retained.release()
            throw .malformedXML(line: 0, message: "libxml2 could not start parsing")
        }
        self.parser = parser
        chunk = .allocate(byteCount: Self.chunkSize, alignment: 16)
    }

    deinit {
        hx_parser_free(parser)
        retained.release()
        chunk.deallocate()
    }

    private static let startCallback: hx_start_fn = { opaque, depth, name, count, attributes in
        let builder = Unmanaged<HealthElementBuilder>.fromOpaque(opaque!).takeUnretainedValue()
        builder.start(depth: Int(depth), name: name!, attributes: UnsafeBufferPointer(start: attributes, count: Int(count)))
    }

    private static let endCallback: hx_end_fn = { opaque, depth, _ in
        let builder = Unmanaged<HealthElementBuilder>.fromOpaque(opaque!).takeUnretainedValue()
        builder.end(depth: Int(depth))
    }

    /// The line the parser has reached (for messages).
    public var line: Int { Int(hx_parser_line(parser)) }

    /// The next top-level element; nil at the end of the document. Throws once the elements read before a
    /// problem have all been returned.
    public func next() throws(HealthImportError) -> HealthElement? {
        while readyIndex == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            if let failure { throw failure }
            if finished { return nil }
            try feed()
            ready = builder.takeCompleted()
        }
        defer { readyIndex += 1 }
        return ready[readyIndex]
    }

    private func feed() throws(HealthImportError) {
        let n: Int
        do {
            n = try stream.read(into: chunk)
        } catch {
            // What was parsed so far is handed on first; then the stream's error.
            failure = error
            _ = hx_parser_feed(parser, nil, 0, 1)
            return
        }
        let status = hx_parser_feed(parser, chunk.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(n), n == 0 ? 1 : 0)
        if n == 0 { finished = true }
        if status != 0 {
            var errorLine: Int32 = 0
            let message = hx_error_message(parser, &errorLine).map { String(cString: $0) } ?? "not well-formed"
            failure = .malformedXML(line: errorLine > 0 ? Int(errorLine) : line, message: message)
        }
    }
}
