import XCTest
@testable import VitalSnapImaging

final class HistogramKernelTests: XCTestCase {
    func testCountsAndPercentilesOfKnownLevels() {
        // Levels 0...99, once each.
        let image = GrayImage(width: 10, height: 10, pixels: (0..<100).map { UInt8($0) })
        let histogram = Histogram(image)
        XCTAssertEqual(histogram.total, 100)
        XCTAssertEqual(histogram.counts[0], 1)
        XCTAssertEqual(histogram.counts[99], 1)
        XCTAssertEqual(histogram.counts[100], 0)
        XCTAssertEqual(histogram.percentile(0), 0)
        XCTAssertEqual(histogram.percentile(0.03), 3)
        XCTAssertEqual(histogram.percentile(0.5), 50)  // 50 pixels (0...49) lie below 50
        XCTAssertEqual(histogram.percentile(0.9), 90)
        XCTAssertEqual(histogram.percentile(0.999), 99)
    }

    func testPercentileOfASkewedImage() {
        // 90 pixels at 200, 10 at 30: the lowest tenth is dark, the rest light.
        var image = GrayImage(width: 10, height: 10, fill: 200)
        for x in 0..<10 { image[x, 4] = 30 }
        let histogram = Histogram(image)
        XCTAssertEqual(histogram.percentile(0.05), 30)
        XCTAssertEqual(histogram.percentile(0.0999), 30)
        XCTAssertEqual(histogram.percentile(0.1), 200)
        XCTAssertEqual(histogram.percentile(0.6), 200)
    }

    func testARectangleIsClippedToTheImage() {
        var image = GrayImage(width: 8, height: 6, fill: 10)
        for y in 0..<6 { for x in 4..<8 { image[x, y] = 250 } }
        let right = Histogram(image, in: PixelRect(x: 4, y: -3, width: 10, height: 20))
        XCTAssertEqual(right.total, 24)
        XCTAssertEqual(right.counts[250], 24)
        XCTAssertEqual(right.counts[10], 0)
        let outside = Histogram(image, in: PixelRect(x: 20, y: 0, width: 4, height: 4))
        XCTAssertEqual(outside.total, 0)
        XCTAssertEqual(outside.percentile(0.5), 0)
        XCTAssertNil(outside.otsuThreshold())
    }

    func testOtsuSplitsTwoLevels() {
        var image = GrayImage(width: 20, height: 10, fill: 50)
        for y in 0..<10 { for x in 10..<20 { image[x, y] = 200 } }
        let threshold = Histogram(image).otsuThreshold()
        XCTAssertNotNil(threshold)
        // The first level of the upper class: anything above 50 and up to 200 separates the two.
        XCTAssertGreaterThan(threshold!, 50)
        XCTAssertLessThanOrEqual(threshold!, 200)
    }

    func testOtsuSeparatesANoisyBimodalImageBetweenItsModes() {
        var rng = SplitMix64(seed: 77)
        // 70% background around 190, 30% ink around 60, each +-15.
        let pixels: [UInt8] = (0..<(40 * 30)).map { _ in
            let ink = Int.random(in: 0..<10, using: &rng) < 3
            return UInt8((ink ? 60 : 190) + Int.random(in: -15...15, using: &rng))
        }
        let image = GrayImage(width: 40, height: 30, pixels: pixels)
        guard let threshold = Histogram(image).otsuThreshold() else { return XCTFail("no threshold") }
        XCTAssertGreaterThan(threshold, 75)
        XCTAssertLessThanOrEqual(threshold, 175)
        // Every ink pixel falls below it and every background pixel at or above.
        let below = pixels.filter { Int($0) < threshold }.count
        let inkCount = pixels.filter { $0 <= 75 }.count
        XCTAssertEqual(below, inkCount)
    }

    func testOtsuOfASingleLevelIsNil() {
        XCTAssertNil(Histogram(GrayImage(width: 5, height: 5, fill: 128)).otsuThreshold())
        XCTAssertNil(Histogram(GrayImage(width: 5, height: 5, fill: 255)).otsuThreshold())
        XCTAssertNil(Histogram().otsuThreshold())
        XCTAssertEqual(Histogram().percentile(0.5), 0)
    }
}
