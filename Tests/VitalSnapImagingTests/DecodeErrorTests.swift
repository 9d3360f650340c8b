import XCTest
@testable import VitalSnapImaging

final class DecodeErrorTests: XCTestCase {
    private func smallJPEG() throws -> [UInt8] {
        try ImageEncoder.jpeg(Fixtures.gradient(width: 32, height: 24), quality: 80)
    }

    // MARK: Not an image

    func testEmptyInput() {
        assertCodecError(try ImageDecoder.decode(bytes: [])) { error in
            XCTAssertEqual(error, .emptyInput)
            XCTAssertEqual(error.description, "empty input: no image data")
        }
    }

    func testRandomBytesAreUnrecognized() {
        var rng = SplitMix64(seed: 7)
        var bytes = (0..<500).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[0] = 0x12  // make sure the random start is not a magic number
        assertCodecError(try ImageDecoder.decode(bytes: bytes)) { error in
            XCTAssertEqual(error, .unrecognizedFormat(leadingBytes: Array(bytes.prefix(8))))
            XCTAssertTrue(error.description.hasPrefix("not a JPEG, PNG, WebP or HEIF/HEIC image (starts with 12 "), error.description)
        }
    }

    func testPDFHeaderIsUnrecognized() {
        let pdf = Array("%PDF-1.4\n%\u{e2}\u{e3}\n1 0 obj".utf8)
        assertCodecError(try ImageDecoder.decode(bytes: pdf)) { error in
            XCTAssertTrue(error.description.hasPrefix("not a JPEG, PNG, WebP or HEIF/HEIC image (starts with 25 50 44 46"), error.description)
        }
    }

    func testFileExtensionDoesNotMatterOnlyMagicBytes() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("really-a-png.jpg")
        try ImageEncoder.write(ImageEncoder.png(Fixtures.gradient(width: 8, height: 8)), to: path)
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: path).format, .png)
    }

    // MARK: Header size limits

    func testJPEGHeaderDeclaring60000SquaredIsRefused() throws {
        let patched = JPEGBytes.patchingSize(try smallJPEG(), width: 60_000, height: 60_000)
        assertCodecError(try ImageDecoder.decode(bytes: patched)) { error in
            XCTAssertEqual(error, .imageTooLarge(.jpeg, width: 60_000, height: 60_000, maxDimension: 30_000, maxPixels: 100_000_000))
            XCTAssertTrue(error.description.contains("60000x60000"), error.description)
        }
    }

    func testJPEGPixelCountLimitAppliesBelowTheSideLimit() throws {
        // 20000 per side is allowed, but 400 million pixels are not.
        let patched = JPEGBytes.patchingSize(try smallJPEG(), width: 20_000, height: 20_000)
        assertCodecError(try ImageDecoder.decode(bytes: patched)) { error in
            guard case .imageTooLarge(.jpeg, 20_000, 20_000, _, _) = error else { return XCTFail("\(error)") }
        }
    }

    func testCustomLimitsAreHonoured() throws {
        let jpeg = try smallJPEG()  // 32x24
        assertCodecError(try ImageDecoder.decode(bytes: jpeg, options: .init(maxDimension: 31))) { error in
            XCTAssertEqual(error, .imageTooLarge(.jpeg, width: 32, height: 24, maxDimension: 31, maxPixels: 100_000_000))
        }
        assertCodecError(try ImageDecoder.decode(bytes: jpeg, options: .init(maxPixels: 767)))
        XCTAssertNoThrow(try ImageDecoder.decode(bytes: jpeg, options: .init(maxPixels: 768, maxDimension: 32)))
        // The limit is on the stored size, even when DCT scaling would make the output small.
        assertCodecError(try ImageDecoder.decode(bytes: jpeg, options: .init(minimumLongSide: 4, maxDimension: 31)))
    }

    func testJPEGZeroHeightIsInvalid() throws {
        let patched = JPEGBytes.patchingSize(try smallJPEG(), width: 32, height: 0)
        assertCodecError(try ImageDecoder.decode(bytes: patched)) { error in
            guard case .invalidDimensions(.jpeg, _, 0) = error else { return XCTFail("\(error)") }
        }
    }

    func testPNGHeaderDeclaring60000SquaredIsRefused() throws {
        let png = try ImageEncoder.png(Fixtures.gradient(width: 16, height: 16))
        let patched = PNGBytes.patchingSize(png, width: 60_000, height: 60_000)
        assertCodecError(try ImageDecoder.decode(bytes: patched)) { error in
            XCTAssertEqual(error, .imageTooLarge(.png, width: 60_000, height: 60_000, maxDimension: 30_000, maxPixels: 100_000_000))
        }
    }

    func testPNGAboveLibpngsOwnLimitIsStillReportedAsTooLarge() throws {
        // libpng itself rejects widths over 1,000,000 with "Invalid IHDR data".
        let png = try ImageEncoder.png(Fixtures.gradient(width: 16, height: 16))
        let patched = PNGBytes.patchingSize(png, width: 2_000_000, height: 16)
        assertCodecError(try ImageDecoder.decode(bytes: patched)) { error in
            guard case .imageTooLarge(.png, 2_000_000, 16, _, _) = error else { return XCTFail("\(error)") }
        }
    }

    func testPNGZeroWidthIsInvalid() throws {
        let png = try ImageEncoder.png(Fixtures.gradient(width: 16, height: 16))
        assertCodecError(try ImageDecoder.decode(bytes: PNGBytes.patchingSize(png, width: 0, height: 16))) { error in
            XCTAssertEqual(error, .invalidDimensions(.png, width: 0, height: 16))
        }
    }

    func testPNGWithBadHeaderCRCIsCorrupt() throws {
        var png = try ImageEncoder.png(Fixtures.gradient(width: 16, height: 16))
        png[29] ^= 0xFF  // first CRC byte of IHDR
        assertCodecError(try ImageDecoder.decode(bytes: png)) { error in
            guard case .corrupt(.png, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("CRC"), detail)
        }
    }

    // MARK: Truncation and damage

    func testTruncatedJPEGDecodesWithWarningWhenNotStrict() throws {
        let image = Fixtures.noise(width: 128, height: 96, seed: 3)
        let jpeg = try ImageEncoder.jpeg(image, quality: 90)
        let full = try ImageDecoder.decode(bytes: jpeg).image
        let half = Array(jpeg.prefix(jpeg.count / 2))

        let decoded = try ImageDecoder.decode(bytes: half)
        XCTAssertEqual(decoded.image.width, 128)
        XCTAssertEqual(decoded.image.height, 96)
        XCTAssertEqual(decoded.warnings.first, "Premature end of JPEG file")
        XCTAssertGreaterThanOrEqual(decoded.warningCount, 1)
        XCTAssertTrue(decoded.isCutShort, "the file ended before the image")
        // Rows before the cut are intact, the last rows are not (libjpeg pads the missing data).
        XCTAssertEqual(Array(decoded.image.pixels[0..<128]), Array(full.pixels[0..<128]))
        XCTAssertNotEqual(Array(decoded.image.pixels.suffix(128)), Array(full.pixels.suffix(128)))
    }

    /// A scan that ends early at a marker (its last bytes missing, the end marker still there): libjpeg warns
    /// "premature end of data segment", and the file is not cut short, as patients' phone photos sometimes are;
    /// viewers show them whole.
    func testAScanEndingEarlyAtAMarkerIsAWarningNotACutShortFile() throws {
        let jpeg = try ImageEncoder.jpeg(Fixtures.noise(width: 128, height: 96, seed: 3), quality: 90)
        XCTAssertEqual(Array(jpeg.suffix(2)), [0xFF, 0xD9])
        let endedEarly = Array(jpeg.prefix(jpeg.count - 40)) + [0xFF, 0xD9]
        let decoded = try ImageDecoder.decode(bytes: endedEarly)
        XCTAssertEqual(decoded.image.width, 128)
        XCTAssertTrue(decoded.warnings.contains { $0.contains("premature end of data segment") }, "\(decoded.warnings)")
        XCTAssertFalse(decoded.isCutShort)
        XCTAssertFalse(try ImageDecoder.decode(bytes: jpeg).isCutShort)
    }

    func testTruncatedJPEGFailsWhenStrict() throws {
        let jpeg = try ImageEncoder.jpeg(Fixtures.noise(width: 128, height: 96, seed: 3), quality: 90)
        let half = Array(jpeg.prefix(jpeg.count / 2))
        assertCodecError(try ImageDecoder.decode(bytes: half, options: .init(strict: true))) { error in
            XCTAssertEqual(error, .truncated(.jpeg, detail: "Premature end of JPEG file"))
            XCTAssertTrue(error.description.hasPrefix("truncated JPEG data"), error.description)
        }
    }

    func testJPEGCutInsideTheHeaderIsTruncated() throws {
        let jpeg = try smallJPEG()
        assertCodecError(try ImageDecoder.decode(bytes: Array(jpeg.prefix(100)))) { error in
            guard case .truncated(.jpeg, _) = error else { return XCTFail("\(error)") }
        }
        assertCodecError(try ImageDecoder.decode(bytes: [0xFF, 0xD8])) { error in
            guard case .truncated(.jpeg, _) = error else { return XCTFail("\(error)") }
        }
    }

    func testExtraneousBytesAreAWarningOrAStrictError() throws {
        // Junk between the JFIF APP0 segment and the next marker (DQT). Junk before EOI would not do:
        // the entropy decoder swallows it as scan data.
        var jpeg = try smallJPEG()
        XCTAssertEqual(Array(jpeg[2..<4]), [0xFF, 0xE0])
        let afterAPP0 = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        XCTAssertEqual(Array(jpeg[afterAPP0..<(afterAPP0 + 2)]), [0xFF, 0xDB])
        jpeg.insert(contentsOf: [0x00, 0x11, 0x22], at: afterAPP0)
        let lenient = try ImageDecoder.decode(bytes: jpeg)
        XCTAssertEqual(lenient.warnings, ["Corrupt JPEG data: 3 extraneous bytes before marker 0xdb"])
        XCTAssertEqual(lenient.image.width, 32)
        assertCodecError(try ImageDecoder.decode(bytes: jpeg, options: .init(strict: true))) { error in
            XCTAssertEqual(error, .strictWarning(.jpeg, warning: "Corrupt JPEG data: 3 extraneous bytes before marker 0xdb"))
        }
    }

    func testGarbageAfterSOIIsCorrupt() {
        var rng = SplitMix64(seed: 11)
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x10] + (0..<200).map { _ in UInt8.random(in: 0...255, using: &rng) }
        assertCodecError(try ImageDecoder.decode(bytes: bytes)) { error in
            switch error {
            case .corrupt(.jpeg, let detail), .truncated(.jpeg, let detail): XCTAssertFalse(detail.isEmpty)
            default: XCTFail("\(error)")
            }
        }
    }

    func testTruncatedPNGFails() throws {
        let png = try ImageEncoder.png(Fixtures.noise(width: 64, height: 64, seed: 4))
        assertCodecError(try ImageDecoder.decode(bytes: Array(png.prefix(png.count / 2)))) { error in
            guard case .truncated(.png, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertFalse(detail.isEmpty)
        }
        // Cut inside the signature: still recognised as PNG, reported as truncated.
        assertCodecError(try ImageDecoder.decode(bytes: Array(png.prefix(5)))) { error in
            guard case .truncated(.png, _) = error else { return XCTFail("\(error)") }
        }
    }

    /// Random damage to valid files must end in success or an ImageCodecError, never a crash or exit().
    func testRandomlyDamagedFilesNeverCrash() throws {
        let image = Fixtures.gradient(width: 24, height: 16)
        let originals = [try ImageEncoder.jpeg(image), try ImageEncoder.png(image)]
        var rng = SplitMix64(seed: 12)
        // Small limits: a damaged SOF can declare any size and debug builds decode slowly.
        let options = DecodeOptions(maxPixels: 200_000, maxDimension: 2_000)
        var outcomes = (successes: 0, failures: 0)
        for round in 0..<300 {
            var bytes = originals[round % 2]
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                bytes[Int.random(in: 2..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if round % 5 == 0 { bytes = Array(bytes.prefix(Int.random(in: 3..<bytes.count, using: &rng))) }
            for strict in [false, true] {
                do {
                    let decoded = try ImageDecoder.decode(bytes: bytes, options: DecodeOptions(
                        maxPixels: options.maxPixels, maxDimension: options.maxDimension, strict: strict))
                    XCTAssertEqual(decoded.image.pixels.count, decoded.image.width * decoded.image.height)
                    outcomes.successes += 1
                } catch {
                    XCTAssertFalse(error.description.isEmpty)
                    outcomes.failures += 1
                }
            }
        }
        XCTAssertGreaterThan(outcomes.successes, 0)
        XCTAssertGreaterThan(outcomes.failures, 0)
    }
}
