import XCTest
@testable import VitalSnapImaging

final class ExifOrientationTests: XCTestCase {
    // MARK: Parser

    func testParsesEveryValueInBothByteOrders() {
        for value in 1...8 {
            for bigEndian in [true, false] {
                let segment = JPEGBytes.exifSegment(orientation: value, bigEndian: bigEndian)
                XCTAssertEqual(ExifOrientation.parse(exifSegment: segment[4...]), ExifOrientation(rawValue: value))
            }
        }
    }

    func testAcceptsLongTypeAndRejectsOutOfRangeValues() {
        let long = JPEGBytes.exifSegment(orientation: 6, bigEndian: false, type: 4)
        XCTAssertEqual(ExifOrientation.parse(exifSegment: long[4...]), .right)
        for bad in [0, 9, 255] {
            XCTAssertNil(ExifOrientation.parse(exifSegment: JPEGBytes.exifSegment(orientation: bad, bigEndian: true)[4...]))
        }
    }

    func testFindsExifAfterAnXMPSegmentAndStopsAtScanData() throws {
        let jpeg = try ImageEncoder.jpeg(Fixtures.gradient(width: 8, height: 8))
        XCTAssertNil(ExifOrientation.parse(jpeg: jpeg))  // the encoder writes JFIF only
        let xmpPayload = Array("http://ns.adobe.com/xap/1.0/\0<x/>".utf8)
        let xmp: [UInt8] = [0xFF, 0xE1, 0, UInt8(xmpPayload.count + 2)] + xmpPayload
        let withBoth = JPEGBytes.insertingAfterSOI(jpeg, xmp + JPEGBytes.exifSegment(orientation: 8, bigEndian: true))
        XCTAssertEqual(ExifOrientation.parse(jpeg: withBoth), .left)
        // An "Exif" APP1 placed after the scan is not metadata and must not be found.
        let afterScan = Array(jpeg.dropLast(2)) + JPEGBytes.exifSegment(orientation: 3, bigEndian: true) + [0xFF, 0xD9]
        XCTAssertNil(ExifOrientation.parse(jpeg: afterScan))
    }

    func testEveryTruncationOfASegmentIsHandled() {
        for bigEndian in [true, false] {
            let payload = Array(JPEGBytes.exifSegment(orientation: 6, bigEndian: bigEndian)[4...])
            // The SHORT value sits 8 bytes into the second 12-byte IFD entry; its 2 padding bytes and
            // the 4-byte next-IFD offset after it are not needed.
            let needed = payload.count - 6
            for length in 0...payload.count {
                let result = ExifOrientation.parse(exifSegment: payload[0..<length])
                XCTAssertEqual(result, length >= needed ? .right : nil, "length \(length)")
            }
        }
    }

    func testRandomAndMutatedDataNeverCrashes() throws {
        var rng = SplitMix64(seed: 99)
        let valid = Array(JPEGBytes.exifSegment(orientation: 3, bigEndian: false)[4...])
        var found = 0
        for round in 0..<5_000 {
            var bytes: [UInt8]
            switch round % 3 {
            case 0:  // pure noise with a valid prefix so the TIFF walker is exercised
                bytes = Array("Exif\0\0".utf8) + (round % 2 == 0 ? [0x49, 0x49, 42, 0] : [0x4D, 0x4D, 0, 42])
                bytes += (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            case 1:  // mutated valid segment (offsets and counts pointing anywhere)
                bytes = valid
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            default:  // mutated, truncated
                bytes = Array(valid.prefix(Int.random(in: 0...valid.count, using: &rng)))
                if !bytes.isEmpty { bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= 0xFF }
            }
            if ExifOrientation.parse(exifSegment: bytes) != nil { found += 1 }
            _ = ExifOrientation.parse(tiff: bytes)
            _ = ExifOrientation.parse(jpeg: [0xFF, 0xD8, 0xFF, 0xE1] + bytes)
            _ = ExifOrientation.parse(png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bytes)
            _ = ExifOrientation.parse(webp: Array("RIFF\0\0\0\0WEBPEXIF".utf8) + bytes)
        }
        XCTAssertGreaterThan(found, 0)  // the mutations leave some segments valid
    }

    /// A RIFF/WEBP container of the given chunks (type, payload), each padded to an even length.
    private func webp(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var body = Array("WEBP".utf8)
        for (type, payload) in chunks {
            let n = UInt32(payload.count)
            body += Array(type.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)] + payload
            if payload.count % 2 == 1 { body.append(0) }
        }
        let n = UInt32(body.count)
        return Array("RIFF".utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)] + body
    }

    func testWebPEXIFChunkIsFoundAfterAnOddLengthChunk() {
        let tiff = Array(JPEGBytes.exifSegment(orientation: 6, bigEndian: false)[10...])  // after APP1 and "Exif\0\0"
        let file = webp([("VP8X", [UInt8](repeating: 0, count: 10)), ("ICCP", [1, 2, 3]), ("EXIF", tiff)])
        XCTAssertEqual(ExifOrientation.parse(webp: file), .right)
        // Some writers keep the "Exif\0\0" prefix inside the chunk.
        XCTAssertEqual(ExifOrientation.parse(webp: webp([("EXIF", Array("Exif\0\0".utf8) + tiff)])), .right)
        XCTAssertNil(ExifOrientation.parse(webp: webp([("VP8X", [UInt8](repeating: 0, count: 10))])))
    }

    func testWebPChunkLengthsThatLieAreHandled() {
        let tiff = Array(JPEGBytes.exifSegment(orientation: 3, bigEndian: true)[10...])
        let file = webp([("ICCP", [1, 2, 3, 4]), ("EXIF", tiff)])
        for length in 0..<file.count {
            let cut = Array(file.prefix(length))
            XCTAssertNil(ExifOrientation.parse(webp: cut), "cut to \(length)")
        }
        var lying = file
        lying[16] = 0xFF; lying[17] = 0xFF; lying[18] = 0xFF; lying[19] = 0x7F  // ICCP claims 2 GB
        XCTAssertNil(ExifOrientation.parse(webp: lying))
    }

    func testSegmentLengthsThatLieAreHandled() {
        // Declared length longer than the data, shorter than the length field, and zero.
        for lengthBytes: [UInt8] in [[0xFF, 0xFF], [0x00, 0x01], [0x00, 0x00]] {
            XCTAssertNil(ExifOrientation.parse(jpeg: [0xFF, 0xD8, 0xFF, 0xE1] + lengthBytes + Array("Exif\0\0II".utf8)))
        }
        XCTAssertNil(ExifOrientation.parse(jpeg: [0xFF, 0xD8]))
        XCTAssertNil(ExifOrientation.parse(jpeg: []))
    }

    // MARK: Decoding applies it

    /// A 32x16 JPEG with a bright 8x8 square in the stored top-left corner.
    private func markerJPEG(orientation: Int, bigEndian: Bool = true) throws -> [UInt8] {
        let jpeg = try ImageEncoder.jpeg(Fixtures.cornerMarker(width: 32, height: 16, size: 8), quality: 95)
        return JPEGBytes.insertingAfterSOI(jpeg, JPEGBytes.exifSegment(orientation: orientation, bigEndian: bigEndian))
    }

    private func isBright(_ image: GrayImage, _ x: Int, _ y: Int) -> Bool { image[x, y] > 180 }

    func testOrientation3IsRotated180() throws {
        let bytes = try markerJPEG(orientation: 3)
        let decoded = try ImageDecoder.decode(bytes: bytes)
        let stored = try ImageDecoder.decode(bytes: bytes, options: .init(applyExifOrientation: false))
        XCTAssertEqual(decoded.orientation, .down)
        XCTAssertEqual(stored.orientation, .down)  // reported even when not applied
        XCTAssertEqual(decoded.image.width, 32)
        XCTAssertEqual(decoded.image.height, 16)
        XCTAssertEqual(decoded.image, stored.image.rotated180())
        XCTAssertTrue(isBright(decoded.image, 28, 12))  // marker now bottom-right
        XCTAssertFalse(isBright(decoded.image, 3, 3))
        XCTAssertTrue(isBright(stored.image, 3, 3))
    }

    func testOrientation6IsRotatedClockwise() throws {
        let bytes = try markerJPEG(orientation: 6, bigEndian: false)
        let decoded = try ImageDecoder.decode(bytes: bytes)
        let stored = try ImageDecoder.decode(bytes: bytes, options: .init(applyExifOrientation: false))
        XCTAssertEqual(decoded.orientation, .right)
        XCTAssertEqual(decoded.image.width, 16)
        XCTAssertEqual(decoded.image.height, 32)
        XCTAssertEqual(decoded.originalWidth, 32)  // as stored
        XCTAssertEqual(decoded.originalHeight, 16)
        XCTAssertEqual(decoded.image, stored.image.rotated90Clockwise())
        XCTAssertTrue(isBright(decoded.image, 12, 3))  // top-left corner went to the top-right
        XCTAssertFalse(isBright(decoded.image, 3, 3))
        XCTAssertFalse(isBright(decoded.image, 12, 28))
    }

    func testOrientation8IsRotatedCounterClockwise() throws {
        let bytes = try markerJPEG(orientation: 8)
        let decoded = try ImageDecoder.decode(bytes: bytes)
        let stored = try ImageDecoder.decode(bytes: bytes, options: .init(applyExifOrientation: false))
        XCTAssertEqual(decoded.orientation, .left)
        XCTAssertEqual(decoded.image.width, 16)
        XCTAssertEqual(decoded.image.height, 32)
        XCTAssertEqual(decoded.image, stored.image.rotated90CounterClockwise())
        XCTAssertTrue(isBright(decoded.image, 3, 28))  // top-left corner went to the bottom-left
        XCTAssertFalse(isBright(decoded.image, 12, 3))
    }

    func testAllOrientationsMatchTheTransforms() throws {
        for orientation in ExifOrientation.allCases {
            let bytes = try markerJPEG(orientation: orientation.rawValue)
            let decoded = try ImageDecoder.decode(bytes: bytes)
            let stored = try ImageDecoder.decode(bytes: bytes, options: .init(applyExifOrientation: false))
            XCTAssertEqual(decoded.orientation, orientation)
            XCTAssertEqual(decoded.image, stored.image.applying(orientation), "\(orientation)")
        }
    }

    func testOrientationIsAppliedAfterDCTScaling() throws {
        let jpeg = try ImageEncoder.jpeg(Fixtures.cornerMarker(width: 64, height: 32, size: 16), quality: 95)
        let bytes = JPEGBytes.insertingAfterSOI(jpeg, JPEGBytes.exifSegment(orientation: 6, bigEndian: true))
        let decoded = try ImageDecoder.decode(bytes: bytes, options: .init(minimumLongSide: 32))
        XCTAssertEqual(decoded.scaleDenominator, 2)
        XCTAssertEqual(decoded.image.width, 16)
        XCTAssertEqual(decoded.image.height, 32)
        XCTAssertEqual(decoded.originalWidth, 64)
        XCTAssertTrue(decoded.image[12, 3] > 180)
    }

    func testPNGeXIfChunkIsApplied() throws {
        let image = Fixtures.cornerMarker(width: 12, height: 6, size: 3)
        let png = try ImageEncoder.png(image)
        let tiff = Array(JPEGBytes.exifSegment(orientation: 6, bigEndian: true)[10...])  // raw TIFF
        let withExif = PNGBytes.insertingAfterIHDR(png, PNGBytes.chunk("eXIf", tiff))
        let decoded = try ImageDecoder.decode(bytes: withExif)
        XCTAssertEqual(decoded.orientation, .right)
        XCTAssertEqual(decoded.image, image.rotated90Clockwise())
    }
}
