import Foundation
import VitalSnapHealth
import XCTest

/// Files the Health tests write: exports made here, zipped by Python's zipfile (the reader under test is ours).
enum HealthFixture {
    /// A fresh folder in the temporary directory, removed when `test` ends.
    static func folder(removedAfter test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-health-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    static let python = "/usr/bin/python3"

    /// Runs Python code with arguments; skips the test when there is no Python.
    static func python(_ code: String, _ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("\(python) is needed to write zips") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", code] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else { throw XCTSkip("python failed: \(text)") }
    }

    /// A zip at `path` with `entries` (name, contents) in order; `method` 8 deflate or 0 stored; zip64 forced.
    static func zip(_ path: URL, _ entries: [(String, Data)], method: Int = 8, zip64: Bool = false) throws {
        let folder = path.deletingLastPathComponent()
        var names: [String] = []
        for (index, entry) in entries.enumerated() {
            let file = folder.appendingPathComponent("entry-\(index)")
            try entry.1.write(to: file)
            names += [entry.0, file.path]
        }
        try python(
            """
            import sys, zipfile
            out, method, zip64 = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
            compression = zipfile.ZIP_DEFLATED if method == 8 else zipfile.ZIP_STORED
            with zipfile.ZipFile(out, "w", compression) as z:
                pairs = sys.argv[4:]
                for name, source in zip(pairs[0::2], pairs[1::2]):
                    with open(source, "rb") as f, z.open(name, "w", force_zip64=zip64) as w:
                        w.write(f.read())
            """, [path.path, String(method), zip64 ? "1" : "0"] + names)
    }

    /// Every byte the stream gives.
    static func readAll(_ stream: ByteStream) throws -> Data {
        var data = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = try stream.read(into: buffer)
            if n == 0 { return data }
            data.append(contentsOf: buffer[0..<n])
        }
    }

    /// A small export in the real shape, with `body` inside `<HealthData>`.
    static func export(_ body: String, doctype: String = "<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Record*)>\n]>\n") -> Data {
        Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + doctype + "<HealthData locale=\"en_US\">\n"
            + " <ExportDate value=\"2026-11-20 09:00:00 -0800\"/>\n" + body + "</HealthData>\n").utf8)
    }

    static func record(_ type: String, _ value: String, unit: String, start: String, end: String? = nil, source: String = "iPhone",
                       metadata: [(String, String)] = []) -> String {
        let entries = metadata.map { "  <MetadataEntry key=\"\($0.0)\" value=\"\($0.1)\"/>\n" }.joined()
        let attributes = "type=\"\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" creationDate=\"\(start)\" startDate=\"\(start)\" endDate=\"\(end ?? start)\" value=\"\(value)\""
        return entries.isEmpty ? " <Record \(attributes)/>\n" : " <Record \(attributes)>\n\(entries) </Record>\n"
    }
}
