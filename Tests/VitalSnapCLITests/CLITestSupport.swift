import Foundation
import VitalSnapImaging
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `vitalsnap` executable as a subprocess, the way users and scripts do.
enum CLI {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String

        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// The executable in the products folder the tests were built into (`.build/<triple>/debug/`), found
    /// next to the test bundle, else under the package's `.build/debug`.
    static let executable: URL? = {
        var candidates: [URL] = []
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.appendingPathComponent("vitalsnap"))
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("vitalsnap"))
        for test in Bundle.allBundles where test.bundlePath.hasSuffix(".xctest") {
            candidates.append(test.bundleURL.deletingLastPathComponent().appendingPathComponent("vitalsnap"))
        }
        if let argument = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent().appendingPathComponent("vitalsnap"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/vitalsnap"))
        candidates.append(packageRoot.appendingPathComponent(".build/release/vitalsnap"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs the executable in `directory`; `input` is written to its standard input (else it reads nothing).
    static func run(_ arguments: [String], in directory: URL, input: String? = nil) throws -> Output {
        guard let executable else { throw XCTSkip("the vitalsnap executable was not found next to the tests") }
        return try runProcess(executable.path, arguments, in: directory, input: input)
    }

    /// Runs any program the same way (a script that makes test data).
    static func runProcess(_ path: String, _ arguments: [String], in directory: URL, input: String? = nil) throws -> Output {
        let executable = URL(fileURLWithPath: path)
        let out = directory.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let err = directory.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        if let input {
            let path = directory.appendingPathComponent(".stdin-\(UUID().uuidString)")
            try Data(input.utf8).write(to: path)
            defer { try? FileManager.default.removeItem(at: path) }
            process.standardInput = try FileHandle(forReadingFrom: path)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Output(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}

/// The bad and good inputs of the tests, written into a temporary folder.
enum Fixture {
    static func blankPNG(width: Int = 32, height: Int = 24) throws -> [UInt8] {
        try ImageEncoder.png(GrayImage(width: width, height: height, fill: 200))
    }

    /// A real JPEG cut in half: libjpeg reads the start and warns "Premature end of JPEG file".
    static func truncatedJPEG() throws -> [UInt8] {
        var image = GrayImage(width: 96, height: 64)
        for y in 0..<64 { for x in 0..<96 { image[x, y] = UInt8((x * 2 + y * 3) & 0xFF) } }
        let jpeg = try ImageEncoder.jpeg(image, quality: 90)
        return Array(jpeg.prefix(jpeg.count / 2))
    }

    /// A real JPEG whose scan ends early at its end marker (its last bytes gone, FF D9 kept): libjpeg warns
    /// "premature end of data segment", as for some phone photos that viewers show whole.
    static func scanEndedEarlyJPEG() throws -> [UInt8] {
        var image = GrayImage(width: 96, height: 64)
        for y in 0..<64 { for x in 0..<96 { image[x, y] = UInt8((x * 2 + y * 3) & 0xFF) } }
        let jpeg = try ImageEncoder.jpeg(image, quality: 90)
        return Array(jpeg.prefix(jpeg.count - 12)) + [0xFF, 0xD9]
    }

    /// Seeded noise that starts like neither a JPEG (FF D8) nor a PNG (89 50).
    static func randomBytes(count: Int = 4096, seed: UInt64 = 42) -> [UInt8] {
        var state = seed
        var bytes = (0..<count).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        bytes[0] = 0x42
        return bytes
    }

    /// A PNG whose IHDR declares `width` x `height` (with a correct CRC) followed by a token IDAT and IEND.
    static func pngDeclaring(width: UInt32, height: UInt32) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(crc32(body))
        }
        let ihdr = be32(width) + be32(height) + [8, 0, 0, 0, 0]  // 8-bit grey, deflate, no filter, no interlace
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]  // zlib stream of one zero byte
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func write(_ bytes: [UInt8], to url: URL) throws {
        try Data(bytes).write(to: url)
    }
}

extension XCTestCase {
    func makeTemporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock {
            // Give back permissions taken away by a test so the folder can be removed.
            if let items = FileManager.default.enumerator(atPath: url.path) {
                for case let item as String in items { chmod(url.appendingPathComponent(item).path, 0o755) }
            }
            try? FileManager.default.removeItem(at: url)
        }
        return url
    }

    /// Parses one line of `batch` output as a JSON object.
    func jsonObject(_ line: String, file: StaticString = #filePath, line number: UInt = #line) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(line)", file: file, line: number)
    }
}
