import XCTest
@testable import VitalSnapImaging

final class AdaptiveThresholdKernelTests: XCTestCase {
    private func threshold(_ image: GrayImage, _ t: AdaptiveThreshold) -> (dark: InkMask, light: InkMask) {
        var dark = InkMask(width: 0, height: 0), light = InkMask(width: 0, height: 0)
        t.apply(image, integral: IntegralImage(image), dark: &dark, light: &light)
        return (dark, light)
    }

    private func count(_ mask: InkMask) -> Int { mask.pixels.reduce(0) { $0 + Int($1) } }

    /// A background that brightens from left to right (60 at the left, 155 at the right) and downwards, with dark
    /// strokes 50 levels below it: a vertical bar, a horizontal bar and a small square.
    private func strokesOnGradient() -> (image: GrayImage, strokes: Set<Int>) {
        let w = 96, h = 48
        var image = GrayImage(width: w, height: h)
        var strokes = Set<Int>()
        for y in 0..<h {
            for x in 0..<w {
                let background = 60 + x + y / 2
                let inStroke = (x >= 20 && x < 23 && y >= 8 && y < 40)  // vertical bar, 3 wide
                    || (y >= 30 && y < 34 && x >= 40 && x < 70)  // horizontal bar, 4 tall
                    || (x >= 80 && x < 84 && y >= 10 && y < 14)  // square
                image[x, y] = UInt8(inStroke ? background - 50 : background)
                if inStroke { strokes.insert(y * w + x) }
            }
        }
        return (image, strokes)
    }

    func testDarkStrokesOnAGradientAreDarkInkAndTheGradientIsNot() {
        let (image, strokes) = strokesOnGradient()
        let (dark, light) = threshold(image, AdaptiveThreshold(radius: 6, k: 0.3, minimumContrast: 8))
        XCTAssertEqual(dark.width, image.width)
        XCTAssertEqual(dark.height, image.height)
        for i in 0..<image.pixels.count {
            XCTAssertEqual(dark.pixels[i] == 1, strokes.contains(i), "dark at (\(i % image.width), \(i / image.width))")
            // Dark strokes are never light ink.
            if strokes.contains(i) { XCTAssertEqual(light.pixels[i], 0) }
        }
        // Far from the strokes, the gradient is neither polarity.
        XCTAssertEqual(light.inkCount(in: PixelRect(x: 0, y: 0, width: 12, height: 48)), 0)
        XCTAssertEqual(light.inkCount(in: PixelRect(x: 30, y: 0, width: 40, height: 20)), 0)
    }

    func testLightInkIsBrighterThanItsSurroundings() {
        var image = GrayImage(width: 40, height: 40, fill: 40)
        for y in 15..<25 { for x in 18..<21 { image[x, y] = 220 } }  // a lit bar of a backlit display
        let (dark, light) = threshold(image, AdaptiveThreshold(radius: 8, k: 0.3, minimumContrast: 8))
        XCTAssertEqual(count(light), 30)
        XCTAssertEqual(light.inkCount(in: PixelRect(x: 18, y: 15, width: 3, height: 10)), 30)
        XCTAssertEqual(dark.inkCount(in: PixelRect(x: 18, y: 15, width: 3, height: 10)), 0)
    }

    func testFlatNoiseBelowTheMinimumContrastIsNotInk() {
        // 128 +- 6: every pixel within 8 of any local mean.
        var rng = SplitMix64(seed: 5)
        let image = GrayImage(width: 48, height: 48, pixels: (0..<(48 * 48)).map { _ in UInt8(128 + Int.random(in: -6...6, using: &rng)) })
        let (dark, light) = threshold(image, AdaptiveThreshold(radius: 6, k: 0.3, minimumContrast: 8))
        XCTAssertEqual(count(dark), 0)
        XCTAssertEqual(count(light), 0)
    }

    func testTheDeviationTermKeepsStrongNoiseOutWhereTheMinimumContrastAloneWouldNot() {
        // 128 +- 20, a standard deviation of about 11.8: with k = 0.3 plenty of pixels pass the bare minimum
        // contrast; with k = 3 the limit (about 35) is above anything the noise reaches.
        var rng = SplitMix64(seed: 9)
        let image = GrayImage(width: 48, height: 48, pixels: (0..<(48 * 48)).map { _ in UInt8(128 + Int.random(in: -20...20, using: &rng)) })
        let loose = threshold(image, AdaptiveThreshold(radius: 6, k: 0.3, minimumContrast: 8))
        XCTAssertGreaterThan(count(loose.dark), 200)
        XCTAssertGreaterThan(count(loose.light), 200)
        let strict = threshold(image, AdaptiveThreshold(radius: 6, k: 3, minimumContrast: 8))
        XCTAssertEqual(count(strict.dark), 0)
        XCTAssertEqual(count(strict.light), 0)
    }

    func testMinimumContrastDecidesFaintStrokesOnAFlatBackground() {
        func bar(contrast: Int) -> GrayImage {
            var image = GrayImage(width: 32, height: 32, fill: 150)
            for y in 8..<24 { for x in 15..<18 { image[x, y] = UInt8(150 - contrast) } }
            return image
        }
        // A 3-wide bar in a 13x13 window lowers the mean by at most 3/13 of the contrast.
        let t = AdaptiveThreshold(radius: 6, k: 0.3, minimumContrast: 8)
        XCTAssertEqual(threshold(bar(contrast: 6), t).dark.inkCount(in: PixelRect(x: 0, y: 0, width: 32, height: 32)), 0)
        XCTAssertEqual(threshold(bar(contrast: 16), t).dark.inkCount(in: PixelRect(x: 15, y: 8, width: 3, height: 16)), 48)
        XCTAssertEqual(count(threshold(bar(contrast: 16), t).dark), 48)
    }

    func testReusedMasksAreResizedAndFullyRewritten() {
        var dark = InkMask(width: 100, height: 100), light = InkMask(width: 100, height: 100)
        for i in 0..<dark.pixels.count { dark.pixels[i] = 1; light.pixels[i] = 1 }
        let image = GrayImage(width: 10, height: 7, fill: 90)
        AdaptiveThreshold().apply(image, integral: IntegralImage(image), dark: &dark, light: &light)
        XCTAssertEqual(dark.width, 10)
        XCTAssertEqual(dark.height, 7)
        XCTAssertEqual(dark.pixels, [UInt8](repeating: 0, count: 70))
        XCTAssertEqual(light.pixels, [UInt8](repeating: 0, count: 70))
    }

    /// The first, plain implementation (mean and variance by division, in floating point), as the reference the
    /// integer one must match.
    private func reference(_ t: AdaptiveThreshold, _ image: GrayImage) -> (dark: InkMask, light: InkMask) {
        let integral = IntegralImage(image)
        let w = image.width, h = image.height
        var dark = InkMask(width: w, height: h), light = InkMask(width: w, height: h)
        for y in 0..<h {
            let y0 = max(0, y - t.radius), y1 = min(h, y + t.radius + 1)
            for x in 0..<w {
                let x0 = max(0, x - t.radius), x1 = min(w, x + t.radius + 1)
                let n = Double((x1 - x0) * (y1 - y0))
                let mean = Double(integral.sum(x0: x0, y0: y0, x1: x1, y1: y1)) / n
                let variance = max(0, Double(integral.sumOfSquares(x0: x0, y0: y0, x1: x1, y1: y1)) / n - mean * mean)
                let diff = Double(image[x, y]) - mean
                let beyond = diff * diff > max(t.k * t.k * variance, t.minimumContrast * t.minimumContrast)
                dark.pixels[y * w + x] = beyond && diff < 0 ? 1 : 0
                light.pixels[y * w + x] = beyond && diff > 0 ? 1 : 0
            }
        }
        return (dark, light)
    }

    func testMatchesThePlainReferenceOnRandomImages() {
        var rng = SplitMix64(seed: 71)
        var differing = 0, total = 0
        for _ in 0..<60 {
            let w = Int.random(in: 1...48, using: &rng), h = Int.random(in: 1...40, using: &rng)
            var image = Fixtures.noise(width: w, height: h, seed: rng.next())
            // Flat patches too, where ties between the two sides are likeliest.
            for y in 0..<h / 2 { for x in 0..<w / 2 { image[x, y] = 128 } }
            let t = AdaptiveThreshold(radius: Int.random(in: 1...15, using: &rng), k: [0.25, 0.3, 0.5][Int.random(in: 0...2, using: &rng)],
                                      minimumContrast: Double(Int.random(in: 0...20, using: &rng)))
            var dark = InkMask(width: 0, height: 0), light = InkMask(width: 0, height: 0)
            t.apply(image, integral: IntegralImage(image), dark: &dark, light: &light)
            let expected = reference(t, image)
            for i in 0..<dark.pixels.count {
                total += 1
                if dark.pixels[i] != expected.dark.pixels[i] || light.pixels[i] != expected.light.pixels[i] { differing += 1 }
            }
        }
        // Exact integers can only differ from the rounded floating-point version where both sides are equal
        // to within rounding: a handful of pixels at most.
        XCTAssertLessThanOrEqual(differing, total / 10_000, "\(differing) of \(total) pixels differ")
    }
}
