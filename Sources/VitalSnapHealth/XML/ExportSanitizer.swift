/// Cleans an export's bytes on their way to the XML parser, for the malformations real exports have:
/// - the internal DTD (`<!DOCTYPE HealthData [ ... ]>`) is dropped: it only declares the elements, and iOS 16
///   wrote it with broken syntax that a conforming parser must reject;
/// - control characters that XML 1.0 forbids (stray `\x0b` in iOS 16 exports) become spaces;
/// - attribute names with spaces in them (2015 exports wrote metadata as attributes: `Health Mate App
///   Version="7.1.1"`) get underscores instead, so the element stays readable.
/// Everything else passes through unchanged, a buffer at a time.
public final class ExportSanitizer: ByteStream {
    private let source: ByteStream
    /// The prologue (declaration and DTD) is held until the root element starts, then emitted without the DTD.
    private var prologue: [UInt8] = []
    private var pending: ArraySlice<UInt8> = []
    private var inPrologue = true
    /// How many control characters were replaced, for the import's summary.
    public private(set) var replacedCharacters = 0
    /// Lines of the DTD dropped from the stream: a parser's line numbers are this much lower than the file's.
    public private(set) var removedLines = 0
    private var markup = MarkupState.text
    /// Spaces after an attribute name, withheld at the end of a buffer until the next byte says what they are.
    private var heldSpaces = 0

    /// Where in the markup the last byte was, to tell an attribute name's spaces from those between attributes.
    enum MarkupState: Equatable {
        case text, tagStart, elementName, inTag, attributeName, spacesAfterName, quoted(UInt8), otherMarkup
    }

    /// A prologue longer than this has no root element worth waiting for: passed through as it is.
    static let largestPrologue = 1 << 20
    static let root = Array("<HealthData".utf8)
    static let doctype = Array("<!DOCTYPE".utf8)

    public init(_ source: ByteStream) {
        self.source = source
    }

    public var consumed: Int64 { source.consumed }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthImportError) -> Int {
        // A buffer of nothing but withheld spaces gives 0 bytes without being the end: read on.
        while true {
            let n = try readOnce(into: buffer)
            if n > 0 || sourceFinished || buffer.isEmpty { return n }
        }
    }

    private var sourceFinished = false

    private func readOnce(into buffer: UnsafeMutableRawBufferPointer) throws(HealthImportError) -> Int {
        while inPrologue {
            if let start = Self.find(Self.root, in: prologue) {
                var cleaned = Array(prologue[..<start])
                if let doctype = Self.find(Self.doctype, in: cleaned) {
                    removedLines = cleaned[doctype...].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                    cleaned.removeSubrange(doctype...)
                }
                pending = ArraySlice(cleaned + prologue[start...])
                prologue = []
                inPrologue = false
                break
            }
            let n = try source.read(into: buffer)
            if n == 0 { sourceFinished = true }
            if n == 0 || prologue.count > Self.largestPrologue {
                prologue += buffer[0..<n]
                pending = ArraySlice(prologue)
                prologue = []
                inPrologue = false
                break
            }
            prologue += buffer[0..<n]
        }
        // Spaces withheld from the last buffer come first: they are decided now.
        var start = 0
        if heldSpaces > 0, markup == .spacesAfterName {
            start = min(heldSpaces, buffer.count)
            for index in 0..<start { buffer[index] = 0x20 }
            heldSpaces -= start
            if heldSpaces > 0 { return start }
        }
        let room = UnsafeMutableRawBufferPointer(rebasing: buffer[start...])
        let n: Int
        if !pending.isEmpty {
            n = min(room.count, pending.count)
            room.copyBytes(from: pending.prefix(n))
            pending = pending.dropFirst(n)
        } else {
            n = try source.read(into: room)
            if n == 0 { sourceFinished = true }
        }
        let filled = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(start + n)])
        replaceControlCharacters(in: UnsafeMutableRawBufferPointer(rebasing: filled[start...]))
        return repairAttributeNames(in: filled, from: start, atEnd: n == 0)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x5F || byte == 0x2D || byte == 0x2E || byte == 0x3A
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Follows the markup byte by byte; spaces between two parts of one attribute name become underscores.
    /// Returns how many bytes may go out now: trailing spaces whose meaning depends on the next buffer stay back.
    private func repairAttributeNames(in bytes: UnsafeMutableRawBufferPointer, from start: Int, atEnd: Bool) -> Int {
        // Withheld spaces put back at the buffer's start are still the spaces after a name.
        var spacesFrom = start > 0 && markup == .spacesAfterName ? 0 : -1
        for index in start..<bytes.count {
            let byte = bytes[index]
            switch markup {
            case .text:
                if byte == 0x3C { markup = .tagStart }  // <
            case .tagStart:
                markup = Self.isNameByte(byte) ? .elementName : .otherMarkup
            case .elementName:
                if byte == 0x3E { markup = .text } else if !Self.isNameByte(byte) { markup = .inTag }
            case .inTag:
                if byte == 0x22 || byte == 0x27 {
                    markup = .quoted(byte)
                } else if byte == 0x3E {
                    markup = .text
                } else if Self.isNameByte(byte) {
                    markup = .attributeName
                }
            case .attributeName:
                if Self.isSpace(byte) {
                    markup = .spacesAfterName
                    spacesFrom = index
                } else if !Self.isNameByte(byte) {
                    markup = byte == 0x3E ? .text : .inTag
                }
            case .spacesAfterName:
                if spacesFrom < 0 { spacesFrom = index }
                if Self.isSpace(byte) { continue }
                if Self.isNameByte(byte) {
                    // A name, spaces, then more name: one name written with spaces.
                    for space in spacesFrom..<index { bytes[space] = 0x5F }
                    markup = .attributeName
                } else {
                    markup = byte == 0x3E ? .text : (byte == 0x22 || byte == 0x27 ? .quoted(byte) : .inTag)
                }
                spacesFrom = -1
            case .quoted(let quote):
                if byte == quote { markup = .inTag }
            case .otherMarkup:
                if byte == 0x3E { markup = .text }
            }
        }
        // Spaces at the very end of the buffer after an attribute name: their meaning is in the next buffer.
        if markup == .spacesAfterName, !atEnd, spacesFrom >= 0, spacesFrom < bytes.count {
            heldSpaces = bytes.count - spacesFrom
            return spacesFrom
        }
        return bytes.count
    }

    /// XML 1.0 allows tab, newline and carriage return below 0x20, nothing else.
    private func replaceControlCharacters(in bytes: UnsafeMutableRawBufferPointer) {
        for index in bytes.indices where bytes[index] < 0x20 {
            let byte = bytes[index]
            if byte != 0x09 && byte != 0x0A && byte != 0x0D {
                bytes[index] = 0x20
                replacedCharacters += 1
            }
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start }
        }
        return nil
    }
}
