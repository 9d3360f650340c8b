import Foundation

/// Finds the export.xml of what the person gave: an `export.zip`, the `export.xml` itself, or the unpacked
/// folder. The XML is recognised by its content (`<HealthData` near its start), not its name: exports from
/// phones in other languages name it differently, and the zip also holds `export_cda.xml`.
public enum HealthExportLocator {
    /// Where the export's XML is, and how to read it.
    public struct Located {
        /// For messages: `export.zip:apple_health_export/export.xml`.
        public var name: String
        /// The size of the file on disk whose `consumed` bytes measure progress.
        public var fileSize: Int64
        public var open: () throws(HealthImportError) -> ByteStream
    }

    /// How far into a file its root element must show (past the XML declaration and the DTD's first lines).
    static let sniffLength = 8192
    static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    public static func locate(_ path: String) throws(HealthImportError) -> Located {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .cannotOpen(path: path, reason: "no such file or folder")
        }
        if isDirectory.boolValue { return try inFolder(path) }
        let head = try Self.head(FileByteStream(path: path))
        if head.starts(with: zipMagic) { return try inZip(path) }
        guard isHealthData(head) else {
            throw .notAnExport(path: path, reason: head.isEmpty ? "the file is empty" : "no <HealthData> element at its start")
        }
        return Located(name: path, fileSize: fileSize(path)) { () throws(HealthImportError) in try FileByteStream(path: path) }
    }

    static func inZip(_ path: String) throws(HealthImportError) -> Located {
        let archive = try ZipArchive(path: path)
        let candidates = archive.entries.filter { !$0.name.hasSuffix("/") && !$0.name.hasPrefix("__MACOSX/") }
        for entry in candidates where entry.name.lowercased().hasSuffix(".xml") || !entry.name.contains(".") {
            let head: [UInt8]
            do { head = try Self.head(archive.open(entry)) } catch { continue }
            if isHealthData(head) {
                return Located(name: "\(path):\(entry.name)", fileSize: archive.size) { () throws(HealthImportError) in
                    try archive.open(entry)
                }
            }
        }
        if archive.isTruncated {
            throw .truncatedZip(path: path, detail: "it ends before the export's XML begins")
        }
        throw .notAnExport(path: path, reason: "none of its \(archive.entries.count) files is an export.xml")
    }

    static func inFolder(_ path: String) throws(HealthImportError) -> Located {
        let preferred = ["apple_health_export/export.xml", "export.xml"]
        var files = preferred.map { path + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        for sub in ["", "/apple_health_export"] {
            let folder = path + sub
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            files += names.sorted().filter { $0.lowercased().hasSuffix(".xml") }.map { folder + "/" + $0 }
        }
        for file in files {
            if let head = try? Self.head(FileByteStream(path: file)), isHealthData(head) {
                return Located(name: file, fileSize: fileSize(file)) { () throws(HealthImportError) in try FileByteStream(path: file) }
            }
        }
        throw .notAnExport(path: path, reason: "the folder has no export.xml (an XML file whose root is <HealthData>)")
    }

    static func head(_ stream: ByteStream) throws(HealthImportError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: sniffLength, alignment: 1)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < sniffLength {
            let n = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if n == 0 { break }
            filled += n
        }
        return Array(buffer[0..<filled])
    }

    static func isHealthData(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        return text.contains("<HealthData") || text.contains("<!DOCTYPE HealthData")
    }

    static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }
}
