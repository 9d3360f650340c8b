import XCTest
@testable import VitalSnapImaging

/// `ContrastEqualizer`: contrast-limited adaptive histogram equalization, checked by what it must do to images
/// whose histograms are known.
final class ContrastEqualizerKernelTests: XCTestCase {
    func equalized(_ image: GrayImage, clipLimit: Double, tiles: Int) -> GrayImage {
        var equalizer = ContrastEqualizer(clipLimit: clipLimit, tiles: tiles)
        var out = GrayImage(width: 0, height: 0)
        equalizer.equalize(image, into: &out)
        return out
    }

    /// Levels `low...high`, spread over the image by a fixed pattern.
    func noise(width: Int, height: Int, _ levels: ClosedRange<Int>, seed: UInt64 = 5) -> GrayImage {
        var rng = SplitMix64(seed: seed)
        return GrayImage(width: width, height: height, pixels: (0..<(width * height)).map { _ in UInt8(Int.random(in: levels, using: &rng)) })
    }

    func spread(_ image: GrayImage, in rect: PixelRect) -> Int {
        let histogram = Histogram(image, in: rect)
        return histogram.percentile(0.95) - histogram.percentile(0.05)
    }

    func testItsRoundingIsDoubleRounded() {
        // Halves, the doubles either side of them, and a spread of others over the range, with the rounding
        // error a sum of weighted levels may carry past 255.
        var values: [Double] = [0, 255, 255.00000000000003, 254.99999999999997]
        for k in 0...255 {
            let half = Double(k) + 0.5
            values += [Double(k), half, half.nextDown, half.nextUp, Double(k).nextUp, Double(k) + 0.25, Double(k) + 0.75]
        }
        for value in values {
            XCTAssertEqual(ContrastEqualizer.rounded(value), UInt8(min(255, max(0, value.rounded()))), "\(value)")
        }
    }

    func testWithoutClippingOneTileIsPlainHistogramEqualization() {
        // Half the pixels at 100, half at 110: the lower level maps to the half of the range below it, the
        // upper to the top.
        var image = GrayImage(width: 16, height: 16, fill: 100)
        for y in 8..<16 { for x in 0..<16 { image[x, y] = 110 } }
        let out = equalized(image, clipLimit: 256, tiles: 1)
        XCTAssertEqual(Int(out[0, 0]), 128, accuracy: 1)
        XCTAssertEqual(out[0, 15], 255)
    }

    func testAClipLimitOfOneLeavesTheImageAlmostAsItIs() {
        // Every bin clipped to the mean and the excess spread evenly: a flat histogram, whose map is the identity.
        let image = noise(width: 64, height: 64, 0...255)
        let out = equalized(image, clipLimit: 1, tiles: 1)
        var largest = 0
        for i in image.pixels.indices { largest = max(largest, abs(Int(out.pixels[i]) - Int(image.pixels[i]))) }
        XCTAssertLessThanOrEqual(largest, 8)
    }

    func testTheMapKeepsTheOrderOfLevels() {
        let image = noise(width: 40, height: 30, 30...90)
        let out = equalized(image, clipLimit: 2, tiles: 1)
        var byLevel = [Int: UInt8]()
        for i in image.pixels.indices {
            let level = Int(image.pixels[i])
            if let seen = byLevel[level] { XCTAssertEqual(seen, out.pixels[i], "one tile: one output per level") }
            byLevel[level] = out.pixels[i]
        }
        let levels = byLevel.keys.sorted()
        for (a, b) in zip(levels, levels.dropFirst()) { XCTAssertLessThanOrEqual(byLevel[a]!, byLevel[b]!) }
    }

    func testAUniformImageStaysUniform() {
        let out = equalized(GrayImage(width: 50, height: 37, fill: 77), clipLimit: 4, tiles: 8)
        XCTAssertEqual(Set(out.pixels).count, 1)
    }

    func testEachTileIsStretchedByItsOwnLevels() {
        // A dim left half (levels 15-45) beside a bright right half (200-230): equalized together, the dim half's
        // spread of levels grows as if the bright half were not there.
        var image = noise(width: 64, height: 32, 15...45)
        let bright = noise(width: 32, height: 32, 200...230, seed: 9)
        for y in 0..<32 { for x in 0..<32 { image[32 + x, y] = bright[x, y] } }
        let dim = PixelRect(x: 4, y: 4, width: 24, height: 24)
        let globally = equalized(image, clipLimit: 2, tiles: 1)
        let locally = equalized(image, clipLimit: 2, tiles: 2)
        XCTAssertGreaterThan(spread(locally, in: dim), 2 * spread(image, in: dim))
        XCTAssertGreaterThan(spread(locally, in: dim), spread(globally, in: dim))
    }

    func testAHigherClipLimitStretchesFurther() {
        let image = noise(width: 64, height: 64, 40...70)
        let all = image.bounds
        XCTAssertGreaterThan(spread(equalized(image, clipLimit: 4, tiles: 4), in: all), spread(equalized(image, clipLimit: 2, tiles: 4), in: all))
    }

    func testOneEqualizerGivesTheSameResultWhateverItEqualizedBefore() {
        let a = noise(width: 61, height: 45, 10...120), b = noise(width: 20, height: 90, 100...250, seed: 3)
        var equalizer = ContrastEqualizer(clipLimit: 2, tiles: 8)
        var out = GrayImage(width: 0, height: 0)
        equalizer.equalize(a, into: &out)
        let first = out
        equalizer.equalize(b, into: &out)
        XCTAssertEqual(out.width, 20)
        XCTAssertEqual(out.height, 90)
        equalizer.equalize(a, into: &out)
        XCTAssertEqual(out, first)
    }

    func testImagesSmallerThanTheTilesAndEmptyOnesAreEqualized() {
        let tiny = noise(width: 3, height: 2, 0...255)
        let out = equalized(tiny, clipLimit: 2, tiles: 8)
        XCTAssertEqual(out.width, 3)
        XCTAssertEqual(out.height, 2)
        let empty = equalized(GrayImage(width: 0, height: 0), clipLimit: 2, tiles: 8)
        XCTAssertTrue(empty.isEmpty)
    }
}
