import XCTest
@testable import VitalSnapImaging

/// WebP and HEIF/HEIC decoding, on the twins of `Samples/formats` (made by `Scripts/make-format-samples.py`
/// from the project's own stills: each WebP or HEIC file there has a JPEG or PNG twin of the same picture).
final class WebPHEIFDecodeTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL
    static let formats = root.appendingPathComponent("Samples/formats")

    /// Rows of Samples/formats/labels.tsv that name a twin: (file, twin).
    static func twins() throws -> [(file: String, twin: String)] {
        let text = try String(contentsOf: formats.appendingPathComponent("labels.tsv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = lines.removeFirst()
        let file = try XCTUnwrap(header.firstIndex(of: "file")), twin = try XCTUnwrap(header.firstIndex(of: "twin"))
        return lines.filter { !$0[twin].isEmpty }.map { (file: $0[file], twin: $0[twin]) }
    }

    func path(_ name: String) -> String { Self.formats.appendingPathComponent(name).path }

    func bytes(_ name: String) throws -> [UInt8] { try FileIO.readAll(path(name)) }

    func testTheSamplesHoldWebPAndHEICTwins() throws {
        let twins = try Self.twins()
        XCTAssertGreaterThanOrEqual(twins.filter { $0.file.hasSuffix(".heic") }.count, 4)
        XCTAssertGreaterThanOrEqual(twins.filter { (try? ImageFormat.detect(bytes($0.file))) == .webp }.count, 5)
    }

    /// Same upright size as the twin, and nearly the same grey: a quarter turn not applied, video-range luma
    /// not expanded (grey g read as 16 + 0.86 g: 9 levels off at black, 20 at white), or alpha not
    /// composited over white would each fail here.
    func testEveryWebPAndHEICDecodesLikeItsTwin() throws {
        for (file, twin) in try Self.twins() {
            let decoded = try ImageDecoder.decode(contentsOf: path(file))
            let reference = try ImageDecoder.decode(contentsOf: path(twin))
            XCTAssertEqual(decoded.format, file.hasSuffix(".heic") ? .heif : .webp, file)
            XCTAssertEqual(decoded.image.width, reference.image.width, file)
            XCTAssertEqual(decoded.image.height, reference.image.height, file)
            guard decoded.image.width == reference.image.width, decoded.image.height == reference.image.height else { continue }
            let error = meanAbsoluteError(decoded.image, reference.image)
            XCTAssertLessThan(error, Self.twinTolerance, "\(file) against \(twin): mean difference \(error)")
            XCTAssertLessThan(abs(meanSignedDifference(decoded.image, reference.image)), Self.twinBias, "\(file): brighter or darker than \(twin)")
        }
    }

    /// Largest mean absolute difference from the twin. Measured 2026-11-26: 0.25 to 1.17 grey levels (the
    /// most for lossy WebP q80). Ignoring the alpha of the rounded corners would add about 3.
    static let twinTolerance = 2.0
    /// Largest mean signed difference: compression noise averages out, a wrong tone curve does not.
    /// Measured: at most 0.51.
    static let twinBias = 1.0

    func testTheTurnedTwinsAreUprightThroughTheirMetadata() throws {
        let webp = try ImageDecoder.decode(contentsOf: path("scale-s1-01-turned.webp"))
        XCTAssertEqual(webp.orientation, .left)
        XCTAssertEqual(webp.originalWidth, 480)
        XCTAssertEqual([webp.image.width, webp.image.height], [640, 480])
        let stored = try ImageDecoder.decode(contentsOf: path("scale-s1-01-turned.webp"), options: .init(applyExifOrientation: false))
        XCTAssertEqual([stored.image.width, stored.image.height], [480, 640])
        // HEIF's rotation is part of the image: the decoder gives it upright and reports nothing to apply.
        let heic = try ImageDecoder.decode(contentsOf: path("scale-s1-01-turned.heic"))
        XCTAssertEqual(heic.orientation, .up)
        XCTAssertEqual([heic.image.width, heic.image.height], [640, 480])
    }

    func testAWebPNamedJPGIsToldByItsBytes() throws {
        XCTAssertEqual(try ImageDecoder.decode(contentsOf: path("thermometer-t1-01-webp.jpg")).format, .webp)
    }

    // MARK: Bad input

    func testSizeLimitsAreCheckedOnTheHeaderBeforeDecoding() throws {
        for name in ["bp-b3-01.webp", "bp-b3-01.heic"] {
            assertCodecError(try ImageDecoder.decode(bytes: bytes(name), options: .init(maxPixels: 640 * 479))) { error in
                guard case .imageTooLarge(_, let width, let height, _, _) = error else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual([width, height], [640, 480], name)
            }
            assertCodecError(try ImageDecoder.decode(bytes: bytes(name), options: .init(maxDimension: 639))) { error in
                guard case .imageTooLarge = error else { return XCTFail("\(name): \(error)") }
            }
        }
    }

    func testTruncatedFilesFailWithAnErrorAtEveryLength() throws {
        for name in ["glucose-g1-01-orange.webp", "bp-b3-01.webp", "oximeter-o1-01-alpha.webp", "glucose-g1-01-orange.heic", "oximeter-o1-01-alpha.heic"] {
            let whole = try bytes(name)
            // Inside the header, the first coded bytes, the middle and the last byte: each cut must be refused.
            for length in [8, 11, 12, 20, 30, 64, 200, whole.count / 2, whole.count - 1] {
                assertCodecError(try ImageDecoder.decode(bytes: Array(whole.prefix(length)))) { error in
                    switch error {
                    case .truncated, .corrupt: break
                    default: XCTFail("\(name) cut to \(length) bytes: \(error)")
                    }
                }
            }
        }
    }

    func testFlippedBytesNeverCrash() throws {
        var rng = SplitMix64(seed: 11)
        for name in ["glucose-g1-01-orange.webp", "bp-b3-01.webp", "glucose-g1-01-orange.heic"] {
            let whole = try bytes(name)
            for _ in 0..<20 {
                var damaged = whole
                for _ in 0..<8 { damaged[Int.random(in: 12..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
                // Either a picture within the size limits or an error; nothing else may happen.
                if let decoded = try? ImageDecoder.decode(bytes: damaged) {
                    let limits = DecodeOptions()
                    XCTAssertLessThanOrEqual(decoded.image.width * decoded.image.height, limits.maxPixels)
                    XCTAssertLessThanOrEqual(max(decoded.image.width, decoded.image.height), limits.maxDimension)
                }
            }
        }
    }

    func testAnAnimatedWebPIsRefusedAsUnsupported() throws {
        let animated = try FileIO.readAll(Self.root.appendingPathComponent("Tests/Fixtures/animated-16x16.webp").path)
        assertCodecError(try ImageDecoder.decode(bytes: animated)) { error in
            XCTAssertEqual(error, .unsupported(.webp, detail: "animated WebP: only still images are read"))
            XCTAssertEqual(error.description, "unsupported WebP file: animated WebP: only still images are read")
        }
    }

    func testOtherRIFFAndISOMediaFilesAreNotImages() {
        let avi = Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("AVI LIST".utf8)
        XCTAssertNil(ImageFormat.detect(avi))
        let mp4 = [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8)
        XCTAssertNil(ImageFormat.detect(mp4))
        assertCodecError(try ImageDecoder.decode(bytes: mp4)) { error in
            guard case .unrecognizedFormat = error else { return XCTFail("\(error)") }
        }
    }

    func testHEIFIsToldByAnyOfItsBrands() {
        let major = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        XCTAssertEqual(ImageFormat.detect(major), .heif)
        // A major brand libheif does not name, with mif1 among the compatible ones.
        let compatible = [0, 0, 0, 0x18] + Array("ftypxxxx".utf8) + [0, 0, 0, 0] + Array("isommif1".utf8)
        XCTAssertEqual(ImageFormat.detect(compatible), .heif)
        // A compatible brand past the box's declared end does not count.
        let outside = [0, 0, 0, 0x10] + Array("ftypxxxx".utf8) + [0, 0, 0, 0] + Array("mif1".utf8)
        XCTAssertNil(ImageFormat.detect(outside))
    }

    func testACutRIFFHeaderIsATruncatedWebP() {
        assertCodecError(try ImageDecoder.decode(bytes: Array("RIFF".utf8) + [0x20, 0])) { error in
            guard case .truncated(.webp, _) = error else { return XCTFail("\(error)") }
        }
    }
}

/// Mean of `a - b` over all pixels: positive when `a` is brighter.
func meanSignedDifference(_ a: GrayImage, _ b: GrayImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var total = 0
    for i in 0..<a.pixels.count { total += Int(a.pixels[i]) - Int(b.pixels[i]) }
    return Double(total) / Double(a.pixels.count)
}
