import CZlib
import Foundation

/// An entry's bytes, inflated as they are read (raw deflate, or stored), from the zip file by pread: memory stays
/// at two fixed buffers whatever the entry's size.
public final class ZipEntryStream: ByteStream {
    /// Kept open for as long as the stream reads from it.
    private let archive: ZipArchive
    private var fd: Int32 { archive.fd }
    private var path: String { archive.path }
    private let start: Int64
    private let length: Int64
    private let deflated: Bool
    /// Whether the entry's whole compressed data is in the file (false in a zip cut short).
    private let complete: Bool
    private var position: Int64 = 0
    private var stream = z_stream()
    private var input: UnsafeMutableRawBufferPointer
    private var finished = false

    /// Compressed bytes read per pread.
    static let inputChunk = 256 * 1024
    /// zlib's window bits for raw deflate (no zlib header), as zip stores it.
    static let rawDeflateWindowBits: Int32 = -15

    init(archive: ZipArchive, start: Int64, length: Int64, deflated: Bool, expectedEnd: Bool) {
        self.archive = archive
        self.start = start
        self.length = length
        self.deflated = deflated
        complete = expectedEnd
        input = .allocate(byteCount: Self.inputChunk, alignment: 16)
        if deflated {
            inflateInit2_(&stream, Self.rawDeflateWindowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        }
    }

    deinit {
        if deflated { inflateEnd(&stream) }
        input.deallocate()
    }

    public var consumed: Int64 { start + position }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthImportError) -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        guard deflated else { return try readStored(into: buffer) }
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(buffer.count)
        while stream.avail_out == uInt(buffer.count) {
            if stream.avail_in == 0 {
                let n = try fill()
                if n == 0 {
                    finished = true
                    // Out of compressed data before deflate's end: the file was cut short.
                    throw .truncatedZip(path: path, detail: "the export's data ends after \(consumed) bytes")
                }
            }
            let status = inflate(&stream, Z_NO_FLUSH)
            if status == Z_STREAM_END {
                finished = true
                break
            }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                finished = true
                let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw .damagedZip(path: path, reason: "the export's compressed data is damaged (\(message))")
            }
        }
        return buffer.count - Int(stream.avail_out)
    }

    private func fill() throws(HealthImportError) -> Int {
        let want = Int(min(Int64(Self.inputChunk), length - position))
        guard want > 0 else { return 0 }
        let n = try pread(into: UnsafeMutableRawBufferPointer(rebasing: input[0..<want]))
        stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_in = uInt(n)
        return n
    }

    private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws(HealthImportError) -> Int {
        let want = Int(min(Int64(buffer.count), length - position))
        guard want > 0 else {
            finished = true
            if !complete { throw .truncatedZip(path: path, detail: "the export's data ends after \(consumed) bytes") }
            return 0
        }
        return try pread(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
    }

    private func pread(into buffer: UnsafeMutableRawBufferPointer) throws(HealthImportError) -> Int {
        while true {
            let n = Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(start + position))
            if n >= 0 {
                position += Int64(n)
                return n
            }
            if errno != EINTR { throw .readFailed(path: path, reason: String(cString: strerror(errno))) }
        }
    }
}
