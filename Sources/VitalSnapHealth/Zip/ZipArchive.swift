import Foundation

/// The entries of a zip file, read from its central directory with pread (the file is never unpacked).
///
/// A zip cut short has no central directory at its end: its entries are then found by walking the local
/// headers from the start, so the part of an export that did arrive can still be read.
public final class ZipArchive {
    public let path: String
    public let size: Int64
    public let entries: [ZipEntry]
    /// True when the central directory was missing and the entries come from local headers.
    public let isTruncated: Bool
    let fd: Int32

    // Signatures and fixed sizes of the zip format (PKWARE APPNOTE 6.3, sections 4.3.7, 4.3.12, 4.3.14-16).
    static let localHeaderSignature: UInt32 = 0x0403_4B50
    static let centralHeaderSignature: UInt32 = 0x0201_4B50
    static let endOfCentralDirectorySignature: UInt32 = 0x0605_4B50
    static let zip64EndSignature: UInt32 = 0x0606_4B50
    static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    static let localHeaderSize = 30
    static let centralHeaderSize = 46
    static let endOfCentralDirectorySize = 22
    /// The end record may be followed by a comment of up to 65,535 bytes.
    static let largestComment = 65_535
    /// The extra field that holds 64-bit sizes and offsets.
    static let zip64ExtraID: UInt16 = 0x0001
    /// A 32-bit field with this value has its real value in the zip64 extra field.
    static let zip64Marker: UInt32 = 0xFFFF_FFFF
    /// General purpose flag bit 3: sizes follow the data, not in the local header.
    static let dataDescriptorFlag: UInt16 = 0x0008

    public init(path: String) throws(HealthImportError) {
        self.path = path
        fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        fstat(fd, &info)
        size = Int64(info.st_size)
        do {
            if let central = try Self.centralDirectory(fd: fd, size: size, path: path) {
                entries = central
                isTruncated = false
            } else {
                entries = try Self.localHeaders(fd: fd, size: size, path: path)
                isTruncated = true
            }
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// A stream of the entry's uncompressed bytes.
    public func open(_ entry: ZipEntry) throws(HealthImportError) -> ZipEntryStream {
        let header = try Self.bytes(fd: fd, at: entry.localHeaderOffset, count: Self.localHeaderSize, path: path)
        guard header.count == Self.localHeaderSize, header.uint32(0) == Self.localHeaderSignature else {
            throw .damagedZip(path: path, reason: "no local header for \(entry.name) at \(entry.localHeaderOffset)")
        }
        let dataStart = entry.localHeaderOffset + Int64(Self.localHeaderSize) + Int64(header.uint16(26)) + Int64(header.uint16(28))
        guard entry.method == 0 || entry.method == 8 else { throw .unsupportedCompression(path: path, method: entry.method) }
        let available = size - dataStart
        let length = entry.compressedSize.map { min($0, available) } ?? available
        return ZipEntryStream(
            archive: self, start: dataStart, length: length, deflated: entry.method == 8,
            expectedEnd: entry.compressedSize.map { dataStart + $0 <= size } ?? false)
    }

    // MARK: - Central directory

    private static func centralDirectory(fd: Int32, size: Int64, path: String) throws(HealthImportError) -> [ZipEntry]? {
        let tailLength = Int(min(size, Int64(endOfCentralDirectorySize + largestComment)))
        let tailStart = size - Int64(tailLength)
        let tail = try bytes(fd: fd, at: tailStart, count: tailLength, path: path)
        guard tail.count >= endOfCentralDirectorySize else { return nil }
        var end: Int?
        var index = tail.count - endOfCentralDirectorySize
        while index >= 0 {
            if tail.uint32(index) == endOfCentralDirectorySignature { end = index; break }
            index -= 1
        }
        guard let end else { return nil }
        var count = Int64(tail.uint16(end + 10))
        var directorySize = Int64(tail.uint32(end + 12))
        var directoryOffset = Int64(tail.uint32(end + 16))
        // Zip64: the locator sits just before the end record and points at the zip64 end record.
        if end >= 20, tail.uint32(end - 20) == zip64LocatorSignature {
            let recordOffset = Int64(tail.uint64(end - 20 + 8))
            let record = try bytes(fd: fd, at: recordOffset, count: 56, path: path)
            guard record.count == 56, record.uint32(0) == zip64EndSignature else {
                throw .damagedZip(path: path, reason: "the zip64 end record is missing")
            }
            count = Int64(record.uint64(32))
            directorySize = Int64(record.uint64(40))
            directoryOffset = Int64(record.uint64(48))
        }
        guard directoryOffset >= 0, directoryOffset + directorySize <= size, count >= 0 else {
            throw .damagedZip(path: path, reason: "the central directory lies outside the file")
        }
        let directory = try bytes(fd: fd, at: directoryOffset, count: Int(directorySize), path: path)
        var entries: [ZipEntry] = []
        var at = 0
        for _ in 0..<count {
            guard at + centralHeaderSize <= directory.count, directory.uint32(at) == centralHeaderSignature else {
                throw .damagedZip(path: path, reason: "entry \(entries.count + 1) of the central directory is damaged")
            }
            let nameLength = Int(directory.uint16(at + 28)), extraLength = Int(directory.uint16(at + 30))
            let commentLength = Int(directory.uint16(at + 32))
            guard at + centralHeaderSize + nameLength + extraLength + commentLength <= directory.count else {
                throw .damagedZip(path: path, reason: "entry \(entries.count + 1) of the central directory runs past its end")
            }
            let nameStart = at + centralHeaderSize
            let name = String(decoding: directory[nameStart..<nameStart + nameLength], as: UTF8.self)
            var compressed = UInt64(directory.uint32(at + 20)), uncompressed = UInt64(directory.uint32(at + 24))
            var offset = UInt64(directory.uint32(at + 42))
            // The zip64 extra field holds, in this order, only the values whose 32-bit field is the marker.
            var extra = nameStart + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = directory.uint16(extra), length = Int(directory.uint16(extra + 2))
                if id == zip64ExtraID {
                    var field = extra + 4
                    if uncompressed == UInt64(zip64Marker), field + 8 <= extraEnd { uncompressed = directory.uint64(field); field += 8 }
                    if compressed == UInt64(zip64Marker), field + 8 <= extraEnd { compressed = directory.uint64(field); field += 8 }
                    if offset == UInt64(zip64Marker), field + 8 <= extraEnd { offset = directory.uint64(field); field += 8 }
                }
                extra += 4 + length
            }
            entries.append(ZipEntry(
                name: name, method: Int(directory.uint16(at + 10)), localHeaderOffset: Int64(offset),
                compressedSize: Int64(compressed), uncompressedSize: Int64(uncompressed)))
            at = nameStart + nameLength + extraLength + commentLength
        }
        return entries
    }

    // MARK: - Local headers (a zip cut short)

    private static func localHeaders(fd: Int32, size: Int64, path: String) throws(HealthImportError) -> [ZipEntry] {
        var entries: [ZipEntry] = []
        var offset: Int64 = 0
        while offset + Int64(localHeaderSize) <= size {
            let header = try bytes(fd: fd, at: offset, count: localHeaderSize, path: path)
            guard header.uint32(0) == localHeaderSignature else { break }
            let nameLength = Int(header.uint16(26)), extraLength = Int(header.uint16(28))
            let nameBytes = try bytes(fd: fd, at: offset + Int64(localHeaderSize), count: nameLength + extraLength, path: path)
            guard nameBytes.count == nameLength + extraLength else { break }
            let name = String(decoding: nameBytes[0..<nameLength], as: UTF8.self)
            var compressed: UInt64? = UInt64(header.uint32(18))
            var uncompressed: UInt64? = UInt64(header.uint32(22))
            if header.uint16(6) & dataDescriptorFlag != 0 { compressed = nil; uncompressed = nil }
            var extra = nameLength
            while extra + 4 <= nameBytes.count {
                let id = nameBytes.uint16(extra), length = Int(nameBytes.uint16(extra + 2))
                if id == zip64ExtraID, length >= 16, extra + 4 + 16 <= nameBytes.count {
                    uncompressed = nameBytes.uint64(extra + 4)
                    compressed = nameBytes.uint64(extra + 12)
                }
                extra += 4 + length
            }
            entries.append(ZipEntry(
                name: name, method: Int(header.uint16(8)), localHeaderOffset: offset,
                compressedSize: compressed.map(Int64.init), uncompressedSize: uncompressed.map(Int64.init)))
            // Without a known size, the next header cannot be found: the rest is this entry's (cut-off) data.
            guard let compressed else { break }
            offset += Int64(localHeaderSize + nameLength + extraLength) + Int64(compressed)
        }
        guard !entries.isEmpty else {
            throw .notAnExport(path: path, reason: "not a zip (no zip header at its start)")
        }
        return entries
    }

    static func bytes(fd: Int32, at offset: Int64, count: Int, path: String) throws(HealthImportError) -> [UInt8] {
        guard count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            done += n
        }
        return Array(buffer[0..<done])
    }
}

extension Array where Element == UInt8 {
    func uint16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    func uint32(_ at: Int) -> UInt32 { UInt32(uint16(at)) | UInt32(uint16(at + 2)) << 16 }
    func uint64(_ at: Int) -> UInt64 { UInt64(uint32(at)) | UInt64(uint32(at + 4)) << 32 }
}
