import XCTest
@testable import VitalSnapImaging

/// `DecodeOptions.grey = .brightestChannel` (`.darkestChannel`): each colour pixel's grey is the largest
/// (smallest) of its red, green and blue, in every format; a grey file decodes the same whichever it is.
final class ChannelDecodeTests: XCTestCase {
    let brightest = DecodeOptions(grey: .brightestChannel)
    let darkest = DecodeOptions(grey: .darkestChannel)

    /// A 32x32 JPEG of four 16x16 blocks of `colours` (top left, top right, bottom left, bottom right) decoded
    /// in luma and with `options`, and each block's middle in both.
    func fourBlocks(_ colours: [(UInt8, UInt8, UInt8)], options: DecodeOptions) throws -> [(luma: Int, channel: Int)] {
        let width = 32, height = 32
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                (rgb[i], rgb[i + 1], rgb[i + 2]) = colours[(y / 16) * 2 + x / 16]
            }
        }
        let jpeg = try ImageEncoder.jpeg(rgb: rgb, width: width, height: height, quality: 95)
        let luma = try ImageDecoder.decode(bytes: jpeg).image
        let channel = try ImageDecoder.decode(bytes: jpeg, options: options).image
        XCTAssertEqual(channel.width, width)
        XCTAssertEqual(channel.height, height)
        return colours.indices.map { index in
            let x = (index % 2) * 16 + 8, y = (index / 2) * 16 + 8
            return (Int(luma[x, y]), Int(channel[x, y]))
        }
    }

    /// `fourBlocks` of `blocks`' colours, each block's luma and channel checked against the block's own.
    func assertFourBlocks(
        _ blocks: [(colour: (UInt8, UInt8, UInt8), luma: Int, channel: Int)], options: DecodeOptions, channelAccuracy: Int
    ) throws {
        let read = try fourBlocks(blocks.map(\.colour), options: options)
        for (index, block) in blocks.enumerated() {
            XCTAssertEqual(read[index].luma, block.luma, accuracy: 4, "luma of block \(index)")
            XCTAssertEqual(read[index].channel, block.channel, accuracy: channelAccuracy, "\(options.grey) of block \(index)")
        }
    }

    func testColourJPEGKeepsEachPixelsBrightestChannel() throws {
        // Red, green / blue, dark blue. Luma makes blue 29 and dark blue 7.
        try assertFourBlocks(
            [((255, 0, 0), 76, 255), ((0, 255, 0), 150, 255), ((0, 0, 255), 29, 255), ((0, 0, 64), 7, 64)],
            options: brightest, channelAccuracy: 6)
    }

    func testColourJPEGKeepsEachPixelsDarkestChannel() throws {
        // Yellow, cyan / light pink, white. Luma makes yellow 226 and cyan 179, near the pink's 213; in the
        // darkest channel the yellow and cyan are as dark as ink and the pink stays light.
        try assertFourBlocks(
            [((255, 255, 0), 226, 0), ((0, 255, 255), 179, 0), ((250, 200, 210), 213, 200), ((255, 255, 255), 255, 255)],
            options: darkest, channelAccuracy: 8)
    }

    /// An 8x4 RGBA image, its left half `left` and its right half `right`, its last row clear.
    func halves(_ left: [UInt8], _ right: [UInt8], width: Int = 8, height: Int = 4) -> [UInt8] {
        var rgba = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                rgba += x < width / 2 ? left : right
                rgba.append(y == height - 1 ? 0 : 255)
            }
        }
        return rgba
    }

    func testColourPNGKeepsEachPixelsDarkestChannelAndAlphaOverWhite() throws {
        // Left half yellow (230, 220, 0), right half light green (150, 230, 160); the last row clear.
        let width = 8, height = 4
        let rgba = halves([230, 220, 0], [150, 230, 160], width: width, height: height)
        let dark = try ImageDecoder.decode(bytes: PNGFixture.encode(rgba, width: width, height: height, channels: 4), options: darkest).image
        XCTAssertEqual(dark[1, 0], 0)
        XCTAssertEqual(dark[6, 0], 150)
        XCTAssertEqual(dark[1, height - 1], 255, "a clear pixel reads as white paper")
    }

    func testColourJPEGAtAReducedScaleKeepsItsSize() throws {
        var rgb = [UInt8](repeating: 0, count: 64 * 48 * 3)
        for i in stride(from: 2, to: rgb.count, by: 3) { rgb[i] = 200 }
        let jpeg = try ImageEncoder.jpeg(rgb: rgb, width: 64, height: 48, quality: 90)
        var options = brightest
        options.minimumLongSide = 16
        let decoded = try ImageDecoder.decode(bytes: jpeg, options: options)
        XCTAssertEqual(decoded.scaleDenominator, 4)
        XCTAssertEqual(decoded.image.width, 16)
        XCTAssertEqual(decoded.image.height, 12)
        XCTAssertEqual(Double(decoded.image[8, 6]), 200, accuracy: 6)
    }

    func testColourPNGKeepsEachPixelsBrightestChannelAndAlphaOverWhite() throws {
        // Left half dark blue (0, 0, 200), right half green (0, 120, 0); in the RGBA copy the last row is clear.
        let width = 8, height = 4
        let rgba = halves([0, 0, 200], [0, 120, 0], width: width, height: height)
        let rgb = stride(from: 0, to: rgba.count, by: 4).flatMap { rgba[$0..<$0 + 3] }
        for (bytes, hasAlpha) in [(PNGFixture.encode(rgb, width: width, height: height, channels: 3), false),
                                  (PNGFixture.encode(rgba, width: width, height: height, channels: 4), true)] {
            let luma = try ImageDecoder.decode(bytes: bytes).image
            let bright = try ImageDecoder.decode(bytes: bytes, options: brightest).image
            // libpng takes luminance in linear light: (0, 0, 200) is 61, not the 23 of 8-bit sRGB weights.
            XCTAssertEqual(Int(luma[1, 0]), 61, accuracy: 3, "luma of dark blue")
            XCTAssertEqual(bright[1, 0], 200)
            XCTAssertEqual(bright[6, 0], 120)
            XCTAssertEqual(bright[1, height - 1], hasAlpha ? 255 : 200, "a clear pixel reads as white paper")
        }
    }

    func testAGreyFileDecodesTheSameEitherWay() throws {
        let grey = Fixtures.gradient(width: 40, height: 30)
        for bytes in [try ImageEncoder.png(grey), try ImageEncoder.jpeg(grey, quality: 90)] {
            for options in [brightest, darkest] {
                XCTAssertEqual(try ImageDecoder.decode(bytes: bytes, options: options).image, try ImageDecoder.decode(bytes: bytes).image)
            }
        }
    }

    /// The orange-lit glucose meter of `Samples/formats` as JPEG, WebP and HEIC: in each, the brightest channel
    /// is brighter than luma on the whole and the darkest darker, and the three agree with each other about as
    /// well as their lumas do.
    func testWebPAndHEICKeepEachChannelLikeTheirJPEGTwin() throws {
        let formats = WebPHEIFDecodeTests.formats
        func decode(_ name: String, _ options: DecodeOptions = .init()) throws -> GrayImage {
            try ImageDecoder.decode(contentsOf: formats.appendingPathComponent(name).path, options: options).image
        }
        for (options, lift) in [(brightest, 1.0), (darkest, -1.0)] {
            let reference = try decode("glucose-g1-01-orange.jpg", options)
            for name in ["glucose-g1-01-orange.jpg", "glucose-g1-01-orange.webp", "glucose-g1-01-orange.heic"] {
                let luma = try decode(name), channel = try decode(name, options)
                XCTAssertEqual(channel.width, luma.width, name)
                XCTAssertEqual(channel.height, luma.height, name)
                XCTAssertGreaterThan(lift * meanSignedDifference(channel, luma), Self.orangeLift, "\(name), \(options.grey): not as far from its luma")
                XCTAssertLessThan(meanAbsoluteError(channel, reference), Self.twinTolerance, "\(name) against the JPEG, \(options.grey)")
            }
        }
    }

    /// Least mean lift of the orange photo's brightest channel over its luma, and of its luma over its darkest
    /// channel. Measured with Pillow: 43 grey levels in the JPEG and the WebP (2026-12-01), 62 below (2026-12-07).
    static let orangeLift = 30.0
    /// Largest mean difference from the JPEG twin's channel (chroma is coded more coarsely than luma).
    static let twinTolerance = 3.0
}

/// A PNG written by hand (zlib stored blocks, no compression) in colour, which `ImageEncoder` does not write.
enum PNGFixture {
    static func encode(_ pixels: [UInt8], width: Int, height: Int, channels: Int) -> [UInt8] {
        var raw = [UInt8]()
        for y in 0..<height {
            raw.append(0)  // filter: none
            raw += pixels[(y * width * channels)..<((y + 1) * width * channels)]
        }
        var zlib: [UInt8] = [0x78, 0x01, 0x01]  // one final stored block
        let length = UInt16(raw.count)
        zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        zlib += raw
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        zlib += bigEndian((b << 16) | a)
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, channels == 4 ? 6 : 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
