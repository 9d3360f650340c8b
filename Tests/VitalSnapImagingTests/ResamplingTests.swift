import XCTest
@testable import VitalSnapImaging

final class ResamplingTests: XCTestCase {
    func testDownsampleByTwoAveragesBlocks() {
        let image = GrayImage(width: 4, height: 4, pixels: [
            0, 2, 10, 10,
            4, 6, 10, 11,
            100, 100, 255, 255,
            100, 101, 255, 254,
        ])
        // Means 3, 10.25, 100.25, 254.75, rounded half up.
        XCTAssertEqual(image.downsampled(byFactor: 2), GrayImage(width: 2, height: 2, pixels: [3, 10, 100, 255]))
    }

    func testDownsampleAveragesPartialEdgeBlocksOverTheirOwnPixels() {
        // 5x4 by 3 -> 2x2; the right column of blocks is 2 wide, the bottom row 1 tall.
        let image = GrayImage(width: 5, height: 4, pixels: [
            9, 9, 9, 40, 60,
            9, 9, 9, 40, 60,
            9, 9, 9, 40, 60,
            1, 2, 3, 200, 0,
        ])
        XCTAssertEqual(image.downsampled(byFactor: 3), GrayImage(width: 2, height: 2, pixels: [9, 50, 2, 100]))
    }

    func testDownsampleByOneIsACopyAndLargeFactorGivesOnePixel() {
        let image = Fixtures.noise(width: 7, height: 3, seed: 1)
        XCTAssertEqual(image.downsampled(byFactor: 1), image)
        let mean = Double(image.pixels.reduce(0) { $0 + Int($1) }) / 21
        let single = image.downsampled(byFactor: 100)
        XCTAssertEqual(single.width, 1)
        XCTAssertEqual(single.height, 1)
        XCTAssertEqual(Double(single.pixels[0]), mean, accuracy: 0.5)
    }

    func testDownsampleMatchesANaiveBlockMeanForManySizes() {
        var rng = SplitMix64(seed: 21)
        for _ in 0..<60 {
            let w = Int.random(in: 1...11, using: &rng), h = Int.random(in: 1...11, using: &rng)
            let n = Int.random(in: 1...4, using: &rng)
            let image = Fixtures.noise(width: w, height: h, seed: rng.next())
            let out = image.downsampled(byFactor: n)
            XCTAssertEqual(out.width, (w + n - 1) / n)
            XCTAssertEqual(out.height, (h + n - 1) / n)
            for oy in 0..<out.height {
                for ox in 0..<out.width {
                    var sum = 0, count = 0
                    for y in (oy * n)..<min(oy * n + n, h) {
                        for x in (ox * n)..<min(ox * n + n, w) {
                            sum += Int(image[x, y])
                            count += 1
                        }
                    }
                    XCTAssertEqual(Int(out[ox, oy]), (sum + count / 2) / count, "\(w)x\(h) by \(n) at (\(ox), \(oy))")
                }
            }
        }
    }

    func testResizeToSameSizeIsACopy() {
        let image = Fixtures.noise(width: 13, height: 9, seed: 2)
        XCTAssertEqual(image.resized(width: 13, height: 9), image)
    }

    func testBilinearUpscaleInterpolatesBetweenPixelCentres() {
        let image = GrayImage(width: 2, height: 1, pixels: [0, 255])
        // Output centres map to source x = -0.25, 0.25, 0.75, 1.25.
        XCTAssertEqual(image.resized(width: 4, height: 1).pixels, [0, 64, 191, 255])
        XCTAssertEqual(image.resized(width: 4, height: 3).pixels, [0, 64, 191, 255, 0, 64, 191, 255, 0, 64, 191, 255])
    }

    func testHalvingEqualsTwoByTwoAverage() {
        let image = Fixtures.noise(width: 16, height: 12, seed: 3)
        let halved = image.resized(width: 8, height: 6)
        let averaged = image.downsampled(byFactor: 2)
        for i in 0..<halved.pixels.count {
            XCTAssertEqual(Int(halved.pixels[i]), Int(averaged.pixels[i]), accuracy: 1)
        }
    }

    func testStrongDownscaleAveragesThinStrokesInsteadOfAliasing() {
        // One-pixel vertical lines every 4 columns: 25% ink. Sampling at 8x would land between
        // columns 3 and 4 and give 50%; averaging gives about 64 everywhere.
        var image = GrayImage(width: 64, height: 64)
        for y in 0..<64 {
            for x in stride(from: 0, to: 64, by: 4) { image[x, y] = 255 }
        }
        let small = image.resized(width: 8, height: 8)
        XCTAssertEqual(small.width, 8)
        for value in small.pixels { XCTAssertEqual(Int(value), 64, accuracy: 2) }
        // Non-integer ratio, one axis only (100x10 -> 9x10): each output covers 2 or 3 of the lines
        // (46...70 as a true box filter). Point sampling would give anything from 0 to about 200.
        let wide = GrayImage(width: 100, height: 10, pixels: (0..<1000).map { $0 % 4 == 0 ? 255 : 0 })
        let narrow = wide.resized(width: 9, height: 10)
        for value in narrow.pixels { XCTAssertTrue((40...75).contains(value), "\(value)") }
    }

    func testResizeIntoReusesStorage() {
        let image = Fixtures.gradient(width: 50, height: 40)
        var out = GrayImage(width: 100, height: 100)
        var scratch = GrayImage(width: 100, height: 100)
        let outBase = out.pixels.withUnsafeBufferPointer { $0.baseAddress }
        let scratchBase = scratch.pixels.withUnsafeBufferPointer { $0.baseAddress }
        image.resize(into: &out, width: 10, height: 8, scratch: &scratch)
        XCTAssertEqual(out, image.resized(width: 10, height: 8))
        XCTAssertEqual(out.pixels.withUnsafeBufferPointer { $0.baseAddress }, outBase)
        XCTAssertEqual(scratch.pixels.withUnsafeBufferPointer { $0.baseAddress }, scratchBase)

        var reused = GrayImage(width: 30, height: 30)
        let reusedBase = reused.pixels.withUnsafeBufferPointer { $0.baseAddress }
        image.downsample(byFactor: 5, into: &reused)
        XCTAssertEqual(reused, image.downsampled(byFactor: 5))
        XCTAssertEqual(reused.pixels.withUnsafeBufferPointer { $0.baseAddress }, reusedBase)
    }

    func testEmptySizes() {
        let image = Fixtures.gradient(width: 5, height: 5)
        XCTAssertEqual(image.resized(width: 0, height: 3).pixels.count, 0)
        XCTAssertEqual(GrayImage(width: 0, height: 0).resized(width: 2, height: 2).pixels, [0, 0, 0, 0])
        XCTAssertEqual(GrayImage(width: 0, height: 4).downsampled(byFactor: 2).pixels.count, 0)
    }
}
