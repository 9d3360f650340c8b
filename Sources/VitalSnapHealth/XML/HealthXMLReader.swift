import CHealthXML
import Foundation
import Logging

/// The export's XML as a stream of top-level elements (`Record`, `Correlation`, `Workout`), parsed a chunk at a
/// time: no tree is built, so memory stays small whatever the file's size. Everything else (`Me`,
/// `ActivitySummary`, workout routes, clinical records) is passed over.
///
/// Two parsers record into one tape of parser events (`health_tape.c`). The scanner in `health_scan.c` reads the
/// plain XML exports are made of, several times faster than libxml2, repairing what `ExportSanitizer` repairs. At
/// anything it leaves to libxml2 (an unusual construct, or XML that is not well-formed) it stops, and the document
/// is opened again and read by libxml2's push parser behind `ExportSanitizer`, whose events are recorded from
/// where the scanner's elements ended. So libxml2 decides every document the scanner does not, with its own
/// messages and line numbers.
///
/// The events come out a stretch at a time (`nextEvents`), for a `HealthElementBuilder` to build elements from,
/// on this thread (`next`) or on another (an import's preparing thread): reading then costs little more than
/// inflating and scanning.
///
/// When the XML stops being well-formed, every event before that point is still handed on, then the error (with
/// its line). Libraries print nothing: libxml2's messages are caught by the C shim.
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
    private let tape: OpaquePointer
    private let chunk: UnsafeMutableRawBufferPointer
    /// For `next`: elements built from the events, and the next one to return.
    private lazy var builder = HealthElementBuilder()
    private var ready: [HealthElement] = []
    private var readyIndex = 0
    private var finished = false
    private var failure: HealthImportError?
    /// `eventsSize` and the bytes read at a time (at most `chunkSize`), smaller in tests.
    var stretchSize = HealthXMLReader.eventsSize
    var feedSize = HealthXMLReader.chunkSize
    private var feedChunk: UnsafeMutableRawBufferPointer { .init(rebasing: chunk[..<min(feedSize, chunk.count)]) }
    private let logger = Logger(label: "vitalsnap.health")

    /// Bytes handed to the parser at a time.
    static let chunkSize = 256 * 1024
    /// Bytes of events recorded before `nextEvents` returns them: a few thousand elements, so that handing them
    /// to another thread costs little per element, and few enough that several threads can build a stretch each.
    static let eventsSize = 512 * 1024
    /// Elements deeper than this are not reported (a correlation's samples' metadata is at 3; route points at 3
    /// are passed over by the builder).
    static let deepestReported: Int32 = 3

    /// Reads the document `open` gives; `open` is called again if libxml2 has to take over. `fastScanner: false`
    /// reads with libxml2 only.
    public init(opening open: @escaping () throws(HealthImportError) -> ByteStream, fastScanner: Bool = true) throws(HealthImportError) {
        self.open = open
        guard let tape = hx_tape_new() else { throw .malformedXML(line: 0, message: "out of memory") }
        self.tape = tape
        chunk = .allocate(byteCount: Self.chunkSize, alignment: 16)
        do throws(HealthImportError) {
            stream = try open()
            if fastScanner, let scanner = hx_scanner_new(hx_tape_start, hx_tape_end, UnsafeMutableRawPointer(tape), Self.deepestReported) {
                engine = .scanner(scanner)
            } else {
                engine = try Self.libxml2(stream, tape)
            }
        } catch {
            hx_tape_free(tape)
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
        hx_tape_free(tape)
        chunk.deallocate()
    }

    private static func libxml2(_ stream: ByteStream, _ tape: OpaquePointer) throws(HealthImportError) -> Engine {
        let sanitizer = ExportSanitizer(stream)
        guard let parser = hx_parser_new(hx_tape_start, hx_tape_end, UnsafeMutableRawPointer(tape), deepestReported) else {
            throw .malformedXML(line: 0, message: "libxml2 could not start parsing")
        }
        return .libxml2(parser, sanitizer)
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
            guard let events = try nextEvents() else { return nil }
            builder.build(events, into: &ready)
        }
        defer { readyIndex += 1 }
        return ready[readyIndex]
    }

    /// The parser events of the next stretch of the document: whole top-level elements, at least `eventsSize`
    /// bytes of them (at its end, what is left). Nil at the end. Throws once the events before a problem have
    /// all been returned.
    func nextEvents() throws(HealthImportError) -> HealthEvents? {
        while true {
            let whole = hx_tape_whole(tape), recorded = hx_tape_length(tape)
            let taken = whole >= stretchSize ? whole : finished || failure != nil ? recorded : 0
            if taken > 0 {
                let events = HealthEvents(bytes: Array(UnsafeBufferPointer(start: hx_tape_bytes(tape), count: taken)), bytesRead: consumed)
                hx_tape_take(tape, taken)
                return events
            }
            if let failure { throw failure }
            if finished { return nil }
            try feed()
            if hx_tape_failed(tape) != 0 { failure = .malformedXML(line: line, message: "out of memory") }
        }
    }

    private func feed() throws(HealthImportError) {
        switch engine {
        case .scanner(let scanner):
            let n: Int
            do {
                n = try stream.read(into: feedChunk)
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
                n = try sanitizer.read(into: feedChunk)
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
        // The elements recorded before the hand-over are still to be taken (they are right); libxml2's first
        // ones, the same, are not recorded again.
        hx_tape_restart(tape)
        do throws(HealthImportError) {
            stream = try open()
            engine = try Self.libxml2(stream, tape)
        } catch {
            failure = error
        }
    }
}
