import XCTest
@testable import VitalSnapImaging

final class CodecRoundTripTests: XCTestCase {
    func testPNGRoundTripIsExact() throws {
        let image = Fixtures.noise(width: 37, height: 23, seed: 1)
        let png = try ImageEncoder.png(image)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try ImageDecoder.decode(bytes: png)
        XCTAssertEqual(decoded.format, .png)
        XCTAssertEqual(decoded.image, image)
        XCTAssertEqual(decoded.originalWidth, 37)
        XCTAssertEqual(decoded.originalHeight, 23)
        XCTAssertEqual(decoded.scaleDenominator, 1)
        XCTAssertEqual(decoded.orientation, .up)
        XCTAssertEqual(decoded.warnings, [])
    }

    func testPNGIgnoresMinimumLongSide() throws {
        let image = Fixtures.gradient(width: 40, height: 20)
        let decoded = try ImageDecoder.decode(bytes: ImageEncoder.png(image), options: .init(minimumLongSide: 5))
        XCTAssertEqual(decoded.scaleDenominator, 1)
        XCTAssertEqual(decoded.image, image)
    }

    func testJPEGRoundTripIsClose() throws {
        let image = Fixtures.gradient(width: 64, height: 48)
        let jpeg = try ImageEncoder.jpeg(image, quality: 90)
        XCTAssertEqual(Array(jpeg.prefix(3)), [0xFF, 0xD8, 0xFF])
        let decoded = try ImageDecoder.decode(bytes: jpeg)
        XCTAssertEqual(decoded.format, .jpeg)
        XCTAssertEqual(decoded.image.width, 64)
        XCTAssertEqual(decoded.image.height, 48)
        XCTAssertLessThan(meanAbsoluteError(decoded.image, image), 1.5)
        XCTAssertEqual(decoded.warnings, [])
        XCTAssertEqual(decoded.warningCount, 0)
    }

    func testJPEGQualityChangesSizeAndError() throws {
        let image = Fixtures.noise(width: 48, height: 48, seed: 2)
        let high = try ImageEncoder.jpeg(image, quality: 95)
        let low = try ImageEncoder.jpeg(image, quality: 10)
        XCTAssertLessThan(low.count, high.count)
        let highError = meanAbsoluteError(try ImageDecoder.decode(bytes: high).image, image)
        let lowError = meanAbsoluteError(try ImageDecoder.decode(bytes: low).image, image)
        XCTAssertLessThan(highError, lowError)
    }

    func testColourJPEGDecodesToLuminance() throws {
        // Four 16x16 blocks: red, green / blue, white. JPEG Y = 0.299 R + 0.587 G + 0.114 B.
        let width = 32, height = 32
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let colour: (UInt8, UInt8, UInt8)
                switch (x < 16, y < 16) {
                case (true, true): colour = (255, 0, 0)
                case (false, true): colour = (0, 255, 0)
                case (true, false): colour = (0, 0, 255)
                case (false, false): colour = (255, 255, 255)
                }
                let i = (y * width + x) * 3
                (rgb[i], rgb[i + 1], rgb[i + 2]) = colour
            }
        }
        let jpeg = try ImageEncoder.jpeg(rgb: rgb, width: width, height: height, quality: 95)
        let decoded = try ImageDecoder.decode(bytes: jpeg)
        XCTAssertEqual(decoded.image.width, 32)
        XCTAssertEqual(decoded.image.height, 32)
        let expected: [(x: Int, y: Int, luma: Int)] = [(8, 8, 76), (24, 8, 150), (8, 24, 29), (24, 24, 255)]
        for point in expected {
            let value = Int(decoded.image[point.x, point.y])
            XCTAssertEqual(value, point.luma, accuracy: 4, "at (\(point.x), \(point.y))")
        }
    }

    func testRGBEncoderRejectsWrongByteCount() {
        assertCodecError(try ImageEncoder.jpeg(rgb: [1, 2, 3], width: 2, height: 2)) { error in
            guard case .invalidArgument(let text) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("expected 2x2x3 = 12"), text)
        }
    }

    func testEncodingAnEmptyImageFails() {
        assertCodecError(try ImageEncoder.png(GrayImage(width: 0, height: 3))) { error in
            XCTAssertEqual(error, .invalidArgument("cannot encode an empty 0x3 image as PNG"))
        }
        assertCodecError(try ImageEncoder.jpeg(GrayImage(width: 4, height: 0)))
    }

    func testDCTScalingPicksLargestReductionMeetingTheLongSide() throws {
        let jpeg = try ImageEncoder.jpeg(Fixtures.gradient(width: 640, height: 480), quality: 85)
        let cases: [(minimum: Int?, width: Int, height: Int, denominator: Int)] = [
            (nil, 640, 480, 1),
            (300, 320, 240, 2),
            (320, 320, 240, 2),  // exactly the long side at 1/2 still counts
            (321, 640, 480, 1),
            (150, 160, 120, 4),
            (60, 80, 60, 8),
            (1, 80, 60, 8),
            (5000, 640, 480, 1),  // cannot be met: full size
        ]
        for c in cases {
            let decoded = try ImageDecoder.decode(bytes: jpeg, options: .init(minimumLongSide: c.minimum))
            XCTAssertEqual(decoded.image.width, c.width, "minimum \(String(describing: c.minimum))")
            XCTAssertEqual(decoded.image.height, c.height, "minimum \(String(describing: c.minimum))")
            XCTAssertEqual(decoded.scaleDenominator, c.denominator, "minimum \(String(describing: c.minimum))")
            XCTAssertEqual(decoded.originalWidth, 640)
            XCTAssertEqual(decoded.originalHeight, 480)
        }
    }

    func testDCTScaledContentMatchesAreaAverage() throws {
        let image = Fixtures.gradient(width: 128, height: 96)
        let jpeg = try ImageEncoder.jpeg(image, quality: 95)
        let quarter = try ImageDecoder.decode(bytes: jpeg, options: .init(minimumLongSide: 32))
        XCTAssertEqual(quarter.scaleDenominator, 4)
        XCTAssertLessThan(meanAbsoluteError(quarter.image, image.downsampled(byFactor: 4)), 2)
    }

    // MARK: PNG colour types (hand-built files)

    func testPNGGrayAlphaIsCompositedOverWhite() throws {
        // Pixels: (gray 100, opaque), (gray 0, fully transparent), (gray 0, opaque).
        let png = PNGBytes.make(width: 3, height: 1, bitDepth: 8, colorType: 4, rows: [[100, 255, 0, 0, 0, 255]])
        let decoded = try ImageDecoder.decode(bytes: png)
        XCTAssertEqual(decoded.image.pixels, [100, 255, 0])
    }

    func testPNGRGBAIsCompositedOverWhiteAndConvertedToGray() throws {
        let row: [UInt8] = [
            0, 0, 0, 255,  // opaque black
            0, 0, 0, 0,  // transparent
            255, 255, 255, 255,  // opaque white
            0, 0, 0, 128,  // half-transparent black over white
        ]
        let decoded = try ImageDecoder.decode(bytes: PNGBytes.make(width: 4, height: 1, bitDepth: 8, colorType: 6, rows: [row]))
        XCTAssertEqual(decoded.image.pixels[0], 0)
        XCTAssertEqual(decoded.image.pixels[1], 255)
        XCTAssertEqual(decoded.image.pixels[2], 255)
        XCTAssertTrue((60...200).contains(decoded.image.pixels[3]), "\(decoded.image.pixels[3])")
    }

    func testPNGPaletteWithTransparency() throws {
        let palette = PNGBytes.chunk("PLTE", [0, 0, 0, 200, 200, 200, 255, 0, 0])
        let trns = PNGBytes.chunk("tRNS", [255, 255, 0])  // entry 2 fully transparent
        let png = PNGBytes.make(
            width: 3, height: 1, bitDepth: 8, colorType: 3, rows: [[0, 1, 2]], extraChunks: [palette, trns])
        let decoded = try ImageDecoder.decode(bytes: png)
        XCTAssertEqual(decoded.image.pixels, [0, 200, 255])
    }

    func testPNG16BitIsReducedTo8Bit() throws {
        // 16-bit samples without gAMA are taken as sRGB (as viewers show them), so 0x8080 -> 128.
        let png = PNGBytes.make(width: 3, height: 1, bitDepth: 16, colorType: 0, rows: [[0, 0, 0x80, 0x80, 0xFF, 0xFF]])
        let decoded = try ImageDecoder.decode(bytes: png)
        XCTAssertEqual(decoded.image.pixels, [0, 128, 255])
    }
}
