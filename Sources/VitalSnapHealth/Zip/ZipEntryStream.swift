import CIsal
import Foundation

/// An entry's bytes, inflated as they are read (raw deflate, or stored), from the zip file by pread: memory stays
/// at two fixed buffers whatever the entry's size. Inflated by ISA-L's igzip, which took 0.22 s for the 1 GB
/// benchmark export's XML where zlib took 0.56 s (the reading thread's largest part after the scanner).
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
    /// igzip's state (its window and tables: a few hundred KB, so not on the stack).
    private let state: UnsafeMutablePointer<inflate_state>
    private var input: UnsafeMutableRawBufferPointer
    private var finished = false

    /// Compressed bytes read per pread.
    static let inputChunk = 256 * 1024

    init(archive: ZipArchive, start: Int64, length: Int64, deflated: Bool, expectedEnd: Bool) {
        self.archive = archive
        self.start = start
        self.length = length
        self.deflated = deflated
        complete = expectedEnd
        input = .allocate(byteCount: Self.inputChunk, alignment: 16)
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
        // Raw deflate (no gzip or zlib wrapper), as zip stores it.
        state.pointee.crc_flag = UInt32(ISAL_DEFLATE)
    }

    deinit {
        state.deallocate()
        input.deallocate()
    }

    public var consumed: Int64 { start + position }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthImportError) -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        guard deflated else { return try readStored(into: buffer) }
        state.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_out = UInt32(clamping: buffer.count)
        let room = state.pointee.avail_out
        while state.pointee.avail_out == room {
            // With all of the entry's data read, igzip may still hold output for the calls after.
            var inputEnded = false
            if state.pointee.avail_in == 0 { inputEnded = try fill() == 0 }
            let status = isal_inflate(state)
            guard status >= ISAL_DECOMP_OK else {
                finished = true
                throw .damagedZip(path: path, reason: "the export's compressed data is damaged (\(Self.describe(status)))")
            }
            if state.pointee.block_state == ISAL_BLOCK_FINISH {
                finished = true
                break
            }
            if inputEnded && state.pointee.avail_out == room {
                finished = true
                // Out of compressed data before deflate's end: the file was cut short.
                throw .truncatedZip(path: path, detail: "the export's data ends after \(consumed) bytes")
            }
        }
        return Int(room - state.pointee.avail_out)
    }

    /// igzip's errors, in words.
    private static func describe(_ status: Int32) -> String {
        switch status {
        case ISAL_INVALID_BLOCK: "an invalid deflate block"
        case ISAL_INVALID_SYMBOL: "an invalid deflate symbol"
        case ISAL_INVALID_LOOKBACK: "a distance back past the start"
        default: "igzip status \(status)"
        }
    }

    private func fill() throws(HealthImportError) -> Int {
        let want = Int(min(Int64(Self.inputChunk), length - position))
        guard want > 0 else { return 0 }
        let n = try pread(into: UnsafeMutableRawBufferPointer(rebasing: input[0..<want]))
        state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_in = UInt32(n)
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
