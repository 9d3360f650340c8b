/// Cleans an export's bytes on their way to the XML parser, for the malformations real exports have:
/// - the internal DTD (`<!DOCTYPE HealthData [ ... ]>`) is dropped: it only declares the elements, and iOS 16
///   wrote it with broken syntax that a conforming parser must reject;
/// - control characters that XML 1.0 forbids (stray `\x0b` in iOS 16 exports) become spaces.
/// Everything else passes through unchanged, a buffer at a time.
public final class ExportSanitizer: ByteStream {
    private let source: ByteStream
    /// The prologue (declaration and DTD) is held until the root element starts, then emitted without the DTD.
    private var prologue: [UInt8] = []
    private var pending: ArraySlice<UInt8> = []
    private var inPrologue = true
    /// How many control characters were replaced, for the import's summary.
    public private(set) var replacedCharacters = 0

    /// A prologue longer than this has no root element worth waiting for: passed through as it is.
    static let largestPrologue = 1 << 20
    static let root = Array("<HealthData".utf8)
    static let doctype = Array("<!DOCTYPE".utf8)

    public init(_ source: ByteStream) {
        self.source = source
    }

    public var consumed: Int64 { source.consumed }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthImportError) -> Int {
        while inPrologue {
            if let start = Self.find(Self.root, in: prologue) {
                var cleaned = Array(prologue[..<start])
                if let doctype = Self.find(Self.doctype, in: cleaned) { cleaned.removeSubrange(doctype...) }
                pending = ArraySlice(cleaned + prologue[start...])
                prologue = []
                inPrologue = false
                break
            }
            let n = try source.read(into: buffer)
            if n == 0 || prologue.count > Self.largestPrologue {
                prologue += buffer[0..<n]
                pending = ArraySlice(prologue)
                prologue = []
                inPrologue = false
                break
            }
            prologue += buffer[0..<n]
        }
        let n: Int
        if !pending.isEmpty {
            n = min(buffer.count, pending.count)
            buffer.copyBytes(from: pending.prefix(n))
            pending = pending.dropFirst(n)
        } else {
            n = try source.read(into: buffer)
        }
        replaceControlCharacters(in: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]))
        return n
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
