import Foundation
import VitalSnapImaging
import VitalSnapSamples
import XCTest
@testable import VitalSnapOCR

/// The reader must come back from any image: a runtime trap (an index out of range, a backwards range, an
/// overflow) anywhere in it ends a whole `vitalsnap batch` run. These are kinds of images a fuzzing run went
/// through (degenerate sizes, blank and random images, digit shapes at the limits), kept small so the debug
/// build stays fast. Each goes through `DisplayReader` (turning included) and through its lines alone (the image
/// taken as a whole frame and as a crop of a display), assembled for four peripherals; a blank, random or striped image must never
/// give a value.
final class ReaderRobustnessTests: XCTestCase {
    static let peripheralIDs = [2, 6, 9, 100]

    struct Case {
        var name: String
        var image: GrayImage
        /// Blank, noise, stripes: nothing there may be read as a value.
        var mustNotRead: Bool
    }

    // MARK: - Deterministic images

    static func image(_ width: Int, _ height: Int, _ value: (Int, Int) -> UInt8) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = value(x, y) }
        }
        return image
    }

    static func noise(_ width: Int, _ height: Int, seed: UInt64) -> GrayImage {
        var random = SampleRandom(seed: seed)
        return image(width, height) { _, _ in UInt8(truncatingIfNeeded: random.next() >> 56) }
    }

    static func fill(_ image: inout GrayImage, _ x: Int, _ y: Int, _ w: Int, _ h: Int, _ value: UInt8) {
        for yy in max(0, y)..<max(max(0, y), min(image.height, y + h)) {
            for xx in max(0, x)..<max(max(0, x), min(image.width, x + w)) { image[xx, yy] = value }
        }
    }

    /// A seven-segment character drawn with filled rectangles (clipped at the image edge): top-left (x, y),
    /// w x h, stroke t. `.` is a t x t square on the baseline.
    static func drawCharacter(_ image: inout GrayImage, _ c: Character, x: Int, y: Int, w: Int, h: Int, t: Int, ink: UInt8) {
        if c == "." { fill(&image, x, y + h - t, t, t, ink); return }
        let segments: [Character: String] = [
            "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg", "6": "acdefg", "7": "abc",
            "8": "abcdefg", "9": "abcdfg", "-": "g",
        ]
        let mid = y + (h - t) / 2
        for s in segments[c] ?? "" {
            switch s {
            case "a": fill(&image, x, y, w, t, ink)
            case "b": fill(&image, x + w - t, y, t, (h + t) / 2, ink)
            case "c": fill(&image, x + w - t, mid, t, h - (mid - y), ink)
            case "d": fill(&image, x, y + h - t, w, t, ink)
            case "e": fill(&image, x, mid, t, h - (mid - y), ink)
            case "f": fill(&image, x, y, t, (h + t) / 2, ink)
            default: fill(&image, x, mid, w, t, ink)
            }
        }
    }

    /// `text` on a `width` x `height` background, characters h tall and w wide, `gap` apart (0 or negative:
    /// touching or overlapping), a `.` taking a stroke's width.
    static func digits(
        _ text: String, width: Int, height: Int, x: Int, y: Int, h: Int, w: Int? = nil, t: Int? = nil, gap: Int? = nil,
        dark: Bool = true
    ) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: dark ? 225 : 30)
        let w = w ?? max(1, h / 2), t = t ?? max(1, h / 7), gap = gap ?? max(1, h / 6)
        var cx = x
        for c in text {
            drawCharacter(&image, c, x: cx, y: y, w: w, h: h, t: t, ink: dark ? 25 : 230)
            cx += (c == "." ? t : w) + gap
        }
        return image
    }

    // MARK: - The cases

    static var cases: [Case] {
        var cases: [Case] = []
        func blank(_ name: String, _ image: GrayImage) { cases.append(Case(name: name, image: image, mustNotRead: true)) }
        func shapes(_ name: String, _ image: GrayImage) { cases.append(Case(name: name, image: image, mustNotRead: false)) }

        // Degenerate sizes: below, at and just above the reader's 8-pixel minimum, one- and two-pixel strips,
        // strips that the working scale halves to nothing or doubles.
        for (w, h, v) in [
            (1, 1, 0), (1, 1, 255), (2, 2, 128), (7, 7, 0), (7, 8, 255), (8, 7, 255), (8, 8, 0), (1, 100, 200),
            (100, 1, 200), (2, 3000, 90), (3000, 2, 90), (8, 3000, 90), (3000, 8, 90), (8, 5000, 37), (5000, 8, 37),
            (400, 8, 200), (8, 400, 200), (1601, 8, 1), (8, 1601, 254), (399, 9, 128),
        ] {
            blank("uniform \(w)x\(h) level \(v)", GrayImage(width: w, height: h, fill: UInt8(v)))
        }
        // Noise, stripes, a checkerboard, a gradient, one odd pixel. (Images of 8 to 11 pixels are blown up
        // 64 times before detection, which the debug build takes seconds over: one of them is enough.)
        blank("noise 8x8", noise(8, 8, seed: 1))
        blank("noise 3000x8", noise(3000, 8, seed: 3))
        blank("noise 8x1000", noise(8, 1000, seed: 4))
        blank("noise 400x12", noise(400, 12, seed: 5))
        blank("vertical stripes 400x12 period 2", image(400, 12) { x, _ in x % 2 == 0 ? 20 : 235 })
        blank("horizontal stripes 12x400 period 3", image(12, 400) { _, y in y % 3 == 0 ? 20 : 235 })
        for period in [2, 3, 4] {
            blank("diagonal stripes 400x16 period \(period)", image(400, 16) { x, y in (x + y) % period == 0 ? 20 : 235 })
        }
        blank("checkerboard 400x16 period 2", image(400, 16) { x, y in (x / 2 + y / 2) % 2 == 0 ? 20 : 235 })
        blank("gradient 400x10", image(400, 10) { x, _ in UInt8(x * 255 / 399) })
        var spot = GrayImage(width: 400, height: 9, fill: 255)
        spot[0, 0] = 0
        blank("white 400x9, one black pixel at the origin", spot)

        // Digit shapes at the limits: 2-4 px tall, cut by the image border, larger than the image, packed with
        // no gap or overlapping, points and minus signs only.
        shapes("8.8 3 px tall", digits("8.8", width: 10, height: 8, x: 1, y: 2, h: 3))
        shapes("8 larger than the image", digits("8", width: 10, height: 8, x: -3, y: -5, h: 20))
        shapes("88 cut by the left and top edges", digits("88", width: 16, height: 12, x: -2, y: -2, h: 14))
        shapes("8888 touching, 400x16", digits("8888", width: 400, height: 16, x: 0, y: 0, h: 16, gap: 0))
        shapes("8888 overlapping, 400x16", digits("8888", width: 400, height: 16, x: 0, y: 0, h: 16, gap: -1))
        shapes("1111 touching, light on dark, 400x14", digits("1111", width: 400, height: 14, x: 1, y: 0, h: 14, gap: 0, dark: false))
        shapes("12.5 thick strokes, 400x16", digits("12.5", width: 400, height: 16, x: 3, y: 1, h: 14, t: 6))
        shapes("row of points, 400x12", digits("..........", width: 400, height: 12, x: 0, y: 0, h: 12, t: 3, gap: 3))
        shapes("row of minus signs, 400x12", digits("----------", width: 400, height: 12, x: 0, y: 0, h: 12, gap: 2))
        return cases
    }

    // MARK: - The test

    func testReaderReturnsOnDegenerateBlankAndExtremeImages() throws {
        let catalog = try PeripheralCatalog.builtIn()
        let peripherals = try Self.peripheralIDs.map { id in try XCTUnwrap(catalog[id], "peripheral \(id)") }
        // One photo reader runs the whole path (turning included); the other peripherals assemble the same
        // lines, which is all that differs between them and keeps the debug build's run short.
        var photoReader = DisplayReader(peripheral: peripherals[0], reader: .rules)
        let assemblers = peripherals.dropFirst().map { ReadingAssembler(peripheral: $0) }
        // The lines read with the image taken as a whole frame and as a crop of a display.
        var lineReaders = [0, Int.max].map { cropSide in
            var configuration = DisplayReader.Configuration()
            configuration.frame.displayCropLongSide = cropSide
            return DisplayReader(peripheral: peripherals[0], reader: .rules, configuration: configuration)
        }
        for c in Self.cases {
            let result = try photoReader.read(image: c.image, file: c.name)
            var values = [(peripherals[0].id, result.reading?.readingString)]
            for i in lineReaders.indices {
                let lines = try lineReaders[i].readLines(c.image)
                values += zip(peripherals.dropFirst(), assemblers).map { ($0.id, $1.assemble(lines).readingString) }
            }
            if c.mustNotRead {
                for (id, value) in values {
                    XCTAssertNil(value, "\(c.name), peripheral \(id): read \(value ?? "")")
                }
            }
        }
    }
}
