import XCTest
@testable import VitalSnapImaging

final class IntegralImageKernelTests: XCTestCase {
    /// Plain sums over [x0, x1) x [y0, y1), the reference the tables are checked against.
    private func referenceSums(_ image: GrayImage, _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> (sum: Int, squares: Int) {
        var s = 0, q = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let v = Int(image[x, y])
                s += v
                q += v * v
            }
        }
        return (s, q)
    }

    private func randomRect(width: Int, height: Int, using rng: inout SplitMix64) -> (Int, Int, Int, Int) {
        let x0 = Int.random(in: 0...width, using: &rng), x1 = Int.random(in: x0...width, using: &rng)
        let y0 = Int.random(in: 0...height, using: &rng), y1 = Int.random(in: y0...height, using: &rng)
        return (x0, y0, x1, y1)
    }

    func testSumsAndSquaresMatchAScalarReferenceOnRandomImages() {
        var rng = SplitMix64(seed: 7)
        for size in [(1, 1), (7, 5), (13, 17), (31, 9), (2, 40)] {
            let image = Fixtures.noise(width: size.0, height: size.1, seed: UInt64(size.0 * 100 + size.1))
            let integral = IntegralImage(image)
            XCTAssertEqual(integral.width, size.0)
            XCTAssertEqual(integral.height, size.1)
            XCTAssertEqual(integral.sums.count, (size.0 + 1) * (size.1 + 1))
            for _ in 0..<60 {
                let (x0, y0, x1, y1) = randomRect(width: size.0, height: size.1, using: &rng)
                let expected = referenceSums(image, x0, y0, x1, y1)
                XCTAssertEqual(Int(integral.sum(x0: x0, y0: y0, x1: x1, y1: y1)), expected.sum, "\(size) [\(x0),\(x1))x[\(y0),\(y1))")
                XCTAssertEqual(Int(integral.sumOfSquares(x0: x0, y0: y0, x1: x1, y1: y1)), expected.squares)
            }
            // The whole image.
            let whole = referenceSums(image, 0, 0, size.0, size.1)
            XCTAssertEqual(Int(integral.sum(x0: 0, y0: 0, x1: size.0, y1: size.1)), whole.sum)
        }
    }

    func testStatisticsAreTheMeanAndPopulationDeviationOfTheClippedRectangle() {
        var rng = SplitMix64(seed: 11)
        let image = Fixtures.noise(width: 19, height: 14, seed: 3)
        let integral = IntegralImage(image)
        for _ in 0..<80 {
            // Rectangles that may reach past the image: statistics clip them.
            let x = Int.random(in: -5...18, using: &rng), y = Int.random(in: -5...13, using: &rng)
            let rect = PixelRect(x: x, y: y, width: Int.random(in: 1...12, using: &rng), height: Int.random(in: 1...12, using: &rng))
            let clipped = rect.intersection(image.bounds)
            let stats = integral.statistics(of: rect)
            guard !clipped.isEmpty else {
                XCTAssertEqual(stats.mean, 0)
                XCTAssertEqual(stats.deviation, 0)
                continue
            }
            var values: [Double] = []
            for yy in clipped.minY..<clipped.maxY {
                for xx in clipped.minX..<clipped.maxX { values.append(Double(image[xx, yy])) }
            }
            let mean = values.reduce(0, +) / Double(values.count)
            let deviation = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
            XCTAssertEqual(stats.mean, mean, accuracy: 1e-9, "\(rect)")
            XCTAssertEqual(stats.deviation, deviation, accuracy: 1e-6, "\(rect)")
        }
    }

    func testStatisticsOfAFlatRectangleHaveNoDeviation() {
        var image = GrayImage(width: 10, height: 6, fill: 77)
        image[9, 5] = 0
        let stats = IntegralImage(image).statistics(of: PixelRect(x: 0, y: 0, width: 9, height: 6))
        XCTAssertEqual(stats.mean, 77, accuracy: 1e-12)
        XCTAssertEqual(stats.deviation, 0, accuracy: 1e-9)
        // Entirely outside the image.
        let outside = IntegralImage(image).statistics(of: PixelRect(x: 20, y: 0, width: 5, height: 5))
        XCTAssertEqual(outside.mean, 0)
        XCTAssertEqual(outside.deviation, 0)
    }

    func testUpdateFromImagesOfOtherSizesRecomputesEverything() {
        var integral = IntegralImage(Fixtures.noise(width: 12, height: 12, seed: 1))
        // Smaller, then same count of cells in another shape (4x3 -> 3x4 share (w+1)(h+1) = 20), then larger.
        for (w, h, seed) in [(4, 3, UInt64(2)), (3, 4, 3), (20, 9, 4)] {
            let image = Fixtures.noise(width: w, height: h, seed: seed)
            integral.update(from: image)
            XCTAssertEqual(integral.width, w)
            XCTAssertEqual(integral.height, h)
            for y0 in 0...h {
                for y1 in y0...h {
                    let x0 = y0 % (w + 1), x1 = w
                    XCTAssertEqual(Int(integral.sum(x0: x0, y0: y0, x1: x1, y1: y1)), referenceSums(image, x0, y0, x1, y1).sum)
                    XCTAssertEqual(
                        Int(integral.sumOfSquares(x0: x0, y0: y0, x1: x1, y1: y1)), referenceSums(image, x0, y0, x1, y1).squares)
                }
            }
        }
    }

    func testSaturatedImageSumsDoNotOverflow() {
        let image = GrayImage(width: 300, height: 200, fill: 255)
        let integral = IntegralImage(image)
        XCTAssertEqual(Int(integral.sum(x0: 0, y0: 0, x1: 300, y1: 200)), 255 * 60_000)
        XCTAssertEqual(Int(integral.sumOfSquares(x0: 0, y0: 0, x1: 300, y1: 200)), 255 * 255 * 60_000)
        XCTAssertEqual(Int(integral.sum(x0: 100, y0: 50, x1: 101, y1: 51)), 255)
    }
}
