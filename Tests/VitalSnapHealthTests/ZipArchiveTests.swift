import Foundation
import VitalSnapHealth
import XCTest

/// The zip reader on zips Python's zipfile writes: deflated, stored, zip64, and cut short.
final class ZipArchiveTests: XCTestCase {
    private func payload(_ count: Int) -> Data {
        // Text that compresses, as an export does, with enough variety to need more than one deflate block.
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        return Data((0..<count).map { (index: Int) -> UInt8 in letters[(index * 7 + index / 13) % letters.count] })
    }

    func testDeflatedStoredAndZip64EntriesReadBackByteForByte() throws {
        let folder = try HealthFixture.folder(removedAfter: self)
        let big = payload(3_000_000), small = Data("<HealthData/>".utf8)
        for (method, zip64) in [(8, false), (0, false), (8, true)] {
            let path = folder.appendingPathComponent("m\(method)-\(zip64).zip")
            try HealthFixture.zip(path, [("a/small.xml", small), ("a/big.txt", big)], method: method, zip64: zip64)
            let archive = try ZipArchive(path: path.path)
            XCTAssertFalse(archive.isTruncated)
            XCTAssertEqual(archive.entries.map(\.name), ["a/small.xml", "a/big.txt"])
            XCTAssertEqual(try HealthFixture.readAll(archive.open(archive.entries[1])), big, "method \(method) zip64 \(zip64)")
            XCTAssertEqual(try HealthFixture.readAll(archive.open(archive.entries[0])), small)
        }
    }

    func testAZipCutShortStillGivesWhatArrivedThenSaysItIsTruncated() throws {
        let folder = try HealthFixture.folder(removedAfter: self)
        let path = folder.appendingPathComponent("whole.zip")
        let big = payload(2_000_000)
        try HealthFixture.zip(path, [("apple_health_export/export.xml", big)])
        let whole = try Data(contentsOf: path)
        let cut = folder.appendingPathComponent("cut.zip")
        try whole.prefix(whole.count / 2).write(to: cut)
        let archive = try ZipArchive(path: cut.path)
        XCTAssertTrue(archive.isTruncated)
        XCTAssertEqual(archive.entries.map(\.name), ["apple_health_export/export.xml"])
        let stream = try archive.open(archive.entries[0])
        var got = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { buffer.deallocate() }
        XCTAssertThrowsError(try {
            while true {
                let n = try stream.read(into: buffer)
                if n == 0 { break }
                got.append(contentsOf: buffer[0..<n])
            }
        }()) { error in
            guard case .truncatedZip = error as? HealthImportError else { return XCTFail("\(error)") }
        }
        // What arrived is the start of the file, byte for byte.
        XCTAssertGreaterThan(got.count, 0)
        XCTAssertEqual(got, big.prefix(got.count))
    }

    func testCompressedDataThatIsNotDeflateIsAClearError() throws {
        let folder = try HealthFixture.folder(removedAfter: self)
        let path = folder.appendingPathComponent("damaged.zip")
        try HealthFixture.zip(path, [("apple_health_export/export.xml", payload(200_000))])
        // The entry's first deflate block made of the block type deflate reserves (BTYPE 11): no inflater reads it.
        var bytes = try Data(contentsOf: path)
        let nameLength = Int(bytes[26]) | Int(bytes[27]) << 8, extraLength = Int(bytes[28]) | Int(bytes[29]) << 8
        bytes[30 + nameLength + extraLength] = 0b111
        try bytes.write(to: path)
        let archive = try ZipArchive(path: path.path)
        let stream = try archive.open(archive.entries[0])
        XCTAssertThrowsError(try HealthFixture.readAll(stream)) { error in
            guard case .damagedZip(_, let reason) = error as? HealthImportError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("invalid deflate block"), reason)
        }
        // Once it has said so, the stream gives nothing more.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        XCTAssertEqual(try stream.read(into: buffer), 0)
    }

    func testNotAZipAndAnEmptyFileAreClearErrors() throws {
        let folder = try HealthFixture.folder(removedAfter: self)
        let empty = folder.appendingPathComponent("empty.zip")
        try Data().write(to: empty)
        XCTAssertThrowsError(try HealthExportLocator.locate(empty.path)) { error in
            XCTAssertTrue("\(error)".contains("empty"), "\(error)")
        }
        let text = folder.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        XCTAssertThrowsError(try HealthExportLocator.locate(text.path)) { error in
            guard case .notAnExport = error as? HealthImportError else { return XCTFail("\(error)") }
        }
    }
}
