import XCTest
@testable import VitalSnapImaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Deterministic pseudo-random numbers so fuzz-style tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum Fixtures {
    /// Smooth, asymmetric content (JPEG-friendly): value depends on x and y differently.
    static func gradient(width: Int, height: Int) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = UInt8(truncatingIfNeeded: (x * 200) / max(1, width - 1) + (y * 55) / max(1, height - 1))
            }
        }
        return image
    }

    /// Dark background with one bright square in the top-left corner: tells every orientation apart.
    static func cornerMarker(width: Int, height: Int, size: Int) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 30)
        for y in 0..<size {
            for x in 0..<size { image[x, y] = 230 }
        }
        return image
    }

    static func noise(width: Int, height: Int, seed: UInt64) -> GrayImage {
        var rng = SplitMix64(seed: seed)
        return GrayImage(width: width, height: height, pixels: (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    /// Distinct values 1, 2, 3, ... in row-major order.
    static func counting(width: Int, height: Int) -> GrayImage {
        GrayImage(width: width, height: height, pixels: (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 + 1) })
    }
}

enum JPEGBytes {
    /// An APP1 Exif segment (marker included) holding only IFD0 with the orientation tag.
    static func exifSegment(orientation: Int, bigEndian: Bool, type: UInt16 = 3) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? b : b.reversed()
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)  // IFD0 right after the header
        tiff += u16(2)  // two entries: an unrelated one first, so the parser has to walk the IFD
        tiff += u16(0x010F) + u16(2) + u32(4) + [0x41, 0x43, 0x4D, 0x00]  // Make = "ACM"
        let value: [UInt8] = type == 4 ? u32(UInt32(orientation)) : u16(UInt16(orientation)) + [0, 0]
        tiff += u16(0x0112) + u16(type) + u32(1) + value
        tiff += u32(0)  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// Inserts a segment right after SOI, where cameras put APP1.
    static func insertingAfterSOI(_ jpeg: [UInt8], _ segment: [UInt8]) -> [UInt8] {
        Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// Offset of the first SOF0/SOF2 marker.
    static func sofOffset(_ jpeg: [UInt8]) -> Int? {
        var i = 2
        while i + 3 < jpeg.count {
            guard jpeg[i] == 0xFF else { return nil }
            let marker = jpeg[i + 1]
            if marker == 0xC0 || marker == 0xC2 { return i }
            i += 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
        }
        return nil
    }

    /// Rewrites the frame size in SOF: FF C0, length(2), precision(1), height(2), width(2).
    static func patchingSize(_ jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        let sof = sofOffset(jpeg)!
        bytes[sof + 5] = UInt8(height >> 8)
        bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8)
        bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }
}

enum PNGBytes {
    /// Rewrites IHDR's width/height and recomputes its CRC (libpng rejects a critical chunk with a bad CRC,
    /// which would test the wrong code path).
    static func patchingSize(_ png: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var bytes = png
        precondition(Array(bytes[12..<16]) == Array("IHDR".utf8))
        for (i, v) in [width, height].enumerated() {
            for k in 0..<4 { bytes[16 + 4 * i + k] = UInt8((v >> (24 - 8 * UInt32(k))) & 0xFF) }
        }
        let crc = crc32(bytes[12..<29])  // type + 13 data bytes
        for k in 0..<4 { bytes[29 + k] = UInt8((crc >> (24 - 8 * UInt32(k))) & 0xFF) }
        return bytes
    }

    /// A chunk with length, type, data and CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = crc32(body[...])
        let n = UInt32(data.count)
        return [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + body
            + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }

    /// Inserts a chunk right after IHDR.
    static func insertingAfterIHDR(_ png: [UInt8], _ chunk: [UInt8]) -> [UInt8] {
        Array(png[0..<33]) + chunk + Array(png[33...])
    }

    static func crc32(_ data: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// A fresh temporary directory, removed with its contents at tear-down.
final class TemporaryDirectory {
    let path: String
    init() {
        var template = Array("/tmp/vitalsnap-imaging-tests-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func entries() -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    deinit {
        for name in entries() {
            let full = file(name)
            chmod(full, 0o755)
            if rmdir(full) != 0 { unlink(full) }
        }
        rmdir(path)
    }
}

func meanAbsoluteError(_ a: GrayImage, _ b: GrayImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var total = 0
    for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
    return Double(total) / Double(max(1, a.pixels.count))
}

/// Asserts that `body` throws an ImageCodecError and hands it over for further checks.
func assertCodecError<T>(
    _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line,
    _ check: (ImageCodecError) -> Void = { _ in }
) {
    do {
        _ = try body()
        XCTFail("expected an ImageCodecError, got success", file: file, line: line)
    } catch let error as ImageCodecError {
        check(error)
    } catch {
        XCTFail("expected an ImageCodecError, got \(error)", file: file, line: line)
    }
}

extension PNGBytes {
    /// Builds a PNG by hand (filter 0, stored deflate blocks) so tests can cover colour types and bit
    /// depths the encoder never writes: gray+alpha, RGBA, palette with tRNS, 16-bit.
    static func make(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [[UInt8]],
        extraChunks: [[UInt8]] = []
    ) -> [UInt8] {
        var raw: [UInt8] = []
        for row in rows { raw += [0] + row }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            let final: UInt8 = offset + n == raw.count ? 1 : 0
            zlib += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + n)]
            offset += n
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        zlib += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]

        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ihdr = be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", ihdr)
        for extra in extraChunks { png += extra }
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return png
    }
}
