import CHealthXML
import Foundation
import Logging

/// The export's XML as a stream of top-level elements (`Record`, `Correlation`, `Workout`), parsed a chunk at a
/// time: no tree is built, so memory stays small whatever the file's size. Everything else (`Me`,
/// `ActivitySummary`, workout routes, clinical records) is passed over.
///
/// Two parsers share one `HealthElementBuilder`. The scanner in `health_scan.c` reads the plain XML exports are
/// made of, several times faster than libxml2, repairing what `ExportSanitizer` repairs. At anything it leaves to
/// libxml2 (an unusual construct, or XML that is not well-formed) it stops, and the document is opened again and
/// read by libxml2's push parser behind `ExportSanitizer`, whose elements are taken from where the scanner's
/// ended. So libxml2 decides every document the scanner does not, with its own messages and line numbers.
///
/// When the XML stops being well-formed, every element completed before that point is still handed on, then the
/// error (with its line). Libraries print nothing: libxml2's messages are caught by the C shim.
public final class HealthXMLReader {
    /// Which parser reads now.
    private enum Engine {
        case scanner(OpaquePointer)
        case libxml2(OpaquePointer, ExportSanitizer)
        /// libxml2 could not take over (the file could not be opened again): `failure` says why.
        case stopped(line: Int)
    }

    private let open: () throws(HealthImportError) -> ByteStream
    private var engine: Engine
    private var stream: ByteStream
    private let builder: HealthElementBuilder
    private let retained: Unmanaged<HealthElementBuilder>
    private let chunk: UnsafeMutableRawBufferPointer
    private var ready: [HealthElement] = []
    private var readyIndex = 0
    private var finished = false
    private var failure: HealthImportError?
    private let logger = Logger(label: "vitalsnap.health")

    /// Bytes handed to the parser at a time.
    static let chunkSize = 256 * 1024
    /// Elements deeper than this are not reported (a correlation's samples' metadata is at 3; route points at 3
    /// are passed over by the builder).
    static let deepestReported: Int32 = 3

    /// Reads the document `open` gives; `open` is called again if libxml2 has to take over. `fastScanner: false`
    /// reads with libxml2 only.
    public init(opening open: @escaping () throws(HealthImportError) -> ByteStream, fastScanner: Bool = true) throws(HealthImportError) {
        self.open = open
        builder = HealthElementBuilder()
        retained = Unmanaged.passRetained(builder)
        chunk = .allocate(byteCount: Self.chunkSize, alignment: 16)
        do throws(HealthImportError) {
            stream = try open()
            if fastScanner, let scanner = hx_scanner_new(Self.startCallback, Self.endCallback, retained.toOpaque(), Self.deepestReported) {
                engine = .scanner(scanner)
            } else {
                engine = try Self.libxml2(stream, retained)
            }
        } catch {
            retained.release()
            chunk.deallocate()
            throw error
        }
    }

    deinit {
        switch engine {
        case .scanner(let scanner): hx_scanner_free(scanner)
        case .libxml2(let parser, _): hx_parser_free(parser)
        case .stopped: break
        }
        retained.release()
        chunk.deallocate()
    }

    private static func libxml2(_ stream: ByteStream, _ retained: Unmanaged<HealthElementBuilder>) throws(HealthImportError) -> Engine {
        let sanitizer = ExportSanitizer(stream)
        guard let parser = hx_parser_new(startCallback, endCallback, retained.toOpaque(), deepestReported) else {
            throw .malformedXML(line: 0, message: "libxml2 could not start parsing")
        }
        return .libxml2(parser, sanitizer)
    }

    private static let startCallback: hx_start_fn = { opaque, depth, name, nameLength, count, attributes in
        let builder = Unmanaged<HealthElementBuilder>.fromOpaque(opaque!).takeUnretainedValue()
        builder.start(
            depth: Int(depth), name: HealthElementBuilder.bytes(name, nameLength),
            attributes: UnsafeBufferPointer(start: attributes, count: Int(count)))
    }

    private static let endCallback: hx_end_fn = { opaque, depth in
        let builder = Unmanaged<HealthElementBuilder>.fromOpaque(opaque!).takeUnretainedValue()
        builder.end(depth: Int(depth))
    }

    /// Bytes of the file on disk consumed so far, for progress.
    public var consumed: Int64 { stream.consumed }

    /// Whether libxml2 took over from the scanner (or read alone).
    public var readByLibxml2: Bool {
        if case .libxml2 = engine { return true }
        return false
    }

    /// Control characters read as spaces.
    public var replacedCharacters: Int {
        switch engine {
        case .scanner(let scanner): Int(hx_scanner_replaced(scanner))
        case .libxml2(_, let sanitizer): sanitizer.replacedCharacters
        case .stopped: 0
        }
    }

    /// The line the parser has reached (for messages), counted in the file.
    public var line: Int {
        switch engine {
        case .scanner(let scanner): Int(hx_scanner_line(scanner))
        // libxml2 counts lines without the DTD the sanitizer dropped; the person has the file.
        case .libxml2(let parser, let sanitizer): Int(hx_parser_line(parser)) + sanitizer.removedLines
        case .stopped(let line): line
        }
    }

    /// The next top-level element; nil at the end of the document. Throws once the elements read before a
    /// problem have all been returned.
    public func next() throws(HealthImportError) -> HealthElement? {
        while readyIndex == ready.count {
            readyIndex = 0
            if let failure { throw failure }
            if finished { return nil }
            try feed()
            builder.takeCompleted(into: &ready)
        }
        defer { readyIndex += 1 }
        return ready[readyIndex]
    }

    private func feed() throws(HealthImportError) {
        switch engine {
        case .scanner(let scanner):
            let n: Int
            do {
                n = try stream.read(into: chunk)
            } catch {
                // What was scanned so far has been handed on; then the stream's error.
                failure = error
                return
            }
            if hx_scanner_feed(scanner, chunk.baseAddress?.assumingMemoryBound(to: CChar.self), n, n == 0 ? 1 : 0) != 0 {
                let reason = hx_scanner_reason(scanner).map { String(cString: $0) } ?? "unknown"
                logger.debug("libxml2 reads this export from the start: the scanner stopped at line \(line) at \(reason)")
                handOver()
            } else if n == 0 {
                finished = true
            }
        case .libxml2(let parser, let sanitizer):
            let n: Int
            do {
                n = try sanitizer.read(into: chunk)
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
                failure = .malformedXML(line: (errorLine > 0 ? Int(errorLine) : Int(hx_parser_line(parser))) + sanitizer.removedLines, message: message)
            }
        case .stopped:
            finished = true
        }
    }

    /// libxml2 reads the document again from its start; the elements the scanner completed are not made twice.
    private func handOver() {
        guard case .scanner(let scanner) = engine else { return }
        let reached = line
        hx_scanner_free(scanner)
        engine = .stopped(line: reached)
        // The elements completed before the hand-over are still to be taken (they are right); libxml2's first
        // ones, the same, are dropped.
        builder.restart(skipping: builder.completedCount)
        do throws(HealthImportError) {
            stream = try open()
            engine = try Self.libxml2(stream, retained)
        } catch {
            failure = error
        }
    }
}
