import XCTest
@testable import VitalSnapImaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class FileTests: XCTestCase {
    func testDecodeFromFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("gradient.png")
        let image = Fixtures.gradient(width: 20, height: 10)
        try ImageEncoder.write(ImageEncoder.png(image), to: path)
        let decoded = try ImageDecoder.decode(contentsOf: path)
        XCTAssertEqual(decoded.image, image)
    }

    func testMissingFile() {
        let path = "/nonexistent-vitalsnap-folder/photo.jpg"
        assertCodecError(try ImageDecoder.decode(contentsOf: path)) { error in
            XCTAssertEqual(error, .fileNotFound(path: path))
            XCTAssertEqual(error.description, "no such file: /nonexistent-vitalsnap-folder/photo.jpg")
        }
    }

    func testDirectory() {
        let dir = TemporaryDirectory()
        assertCodecError(try ImageDecoder.decode(contentsOf: dir.path)) { error in
            XCTAssertEqual(error, .isDirectory(path: dir.path))
            XCTAssertTrue(error.description.contains(dir.path))
        }
    }

    func testEmptyFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("empty.jpg")
        try ImageEncoder.write([], to: path)
        assertCodecError(try ImageDecoder.decode(contentsOf: path)) { error in
            XCTAssertEqual(error, .emptyFile(path: path))
            XCTAssertEqual(error.description, "empty file (0 bytes): \(path)")
        }
    }

    /// A FIFO made here rather than /dev/null: in some sandboxes /dev/null is a plain file.
    func testFifoIsNotARegularFileAndReadingItDoesNotWaitForAWriter() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("pipe.jpg")
        XCTAssertEqual(mkfifo(path, 0o644), 0)
        assertCodecError(try ImageDecoder.decode(contentsOf: path)) { error in
            XCTAssertEqual(error, .notARegularFile(path: path))
        }
    }

    func testPermissionDenied() throws {
        // root reads anything, so the case cannot be produced there.
        try XCTSkipIf(geteuid() == 0, "running as root: permissions are not enforced")
        let dir = TemporaryDirectory()
        let path = dir.file("secret.png")
        try ImageEncoder.write(ImageEncoder.png(Fixtures.gradient(width: 4, height: 4)), to: path)
        XCTAssertEqual(chmod(path, 0), 0)
        assertCodecError(try ImageDecoder.decode(contentsOf: path)) { error in
            XCTAssertEqual(error, .permissionDenied(path: path))
        }
    }

    func testWriteReplacesAtomicallyAndLeavesNoTemporaryFiles() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("out.png")
        try ImageEncoder.write([1, 2, 3], to: path)
        try ImageEncoder.write([4, 5], to: path)
        XCTAssertEqual(dir.entries(), ["out.png"])
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_size, 2)
    }

    func testWriteIntoMissingFolderFails() {
        let path = "/nonexistent-vitalsnap-folder/out.png"
        assertCodecError(try ImageEncoder.write([1], to: path)) { error in
            guard case .writeFailed(path, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "No such file or directory")
        }
    }

    func testWriteOverADirectoryFailsAndCleansUp() throws {
        let dir = TemporaryDirectory()
        let target = dir.file("folder")
        XCTAssertEqual(mkdir(target, 0o755), 0)
        assertCodecError(try ImageEncoder.write([1], to: target)) { error in
            guard case .notARegularFile(target) = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(dir.entries(), ["folder"])
    }

    /// The rename of an atomic write would replace a FIFO or device with a file (as root, even /dev/null).
    func testWriteOverAFifoIsRefusedAndLeavesItAFifo() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("pipe.png")
        XCTAssertEqual(mkfifo(path, 0o644), 0)
        assertCodecError(try ImageEncoder.write([1], to: path)) { error in
            guard case .notARegularFile(path) = error else { return XCTFail("\(error)") }
        }
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)
        XCTAssertEqual(dir.entries(), ["pipe.png"])
    }

    func testRelativePathWrite() throws {
        let dir = TemporaryDirectory()
        let previous = getcwd(nil, 0)!
        defer { chdir(previous); free(previous) }
        XCTAssertEqual(chdir(dir.path), 0)
        try ImageEncoder.write([9, 9], to: "relative.bin")
        XCTAssertEqual(dir.entries(), ["relative.bin"])
    }
}
