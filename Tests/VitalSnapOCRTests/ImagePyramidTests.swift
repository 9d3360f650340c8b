import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

final class ImagePyramidTests: XCTestCase {
    func testLevelsHalveUntilTheShorterSideWouldDropBelowTheMinimum() {
        var pyramid = ImagePyramid()
        pyramid.update(from: GrayImage(width: 200, height: 120, fill: 9), maximumLevels: 4)
        // 120 -> 60 is allowed (>= 48), 60 -> 30 is not.
        XCTAssertEqual(pyramid.levels.map(\.width), [200, 100])
        XCTAssertEqual(pyramid.levels.map(\.height), [120, 60])

        pyramid.update(from: GrayImage(width: 101, height: 77, fill: 9), maximumLevels: 5, minimumSide: 8)
        XCTAssertEqual(pyramid.levels.map(\.width), [101, 50, 25, 12])
        XCTAssertEqual(pyramid.levels.map(\.height), [77, 38, 19, 9])

        pyramid.update(from: GrayImage(width: 400, height: 400, fill: 9), maximumLevels: 3, minimumSide: 8)
        XCTAssertEqual(pyramid.levels.map(\.width), [400, 200, 100])  // capped by maximumLevels

        pyramid.update(from: GrayImage(width: 64, height: 64, fill: 9), maximumLevels: 1)
        XCTAssertEqual(pyramid.levels.count, 1)
        XCTAssertEqual(pyramid.levels[0], GrayImage(width: 64, height: 64, fill: 9))
    }

    func testEachLevelIsTheRoundedTwoByTwoAverageOfThePreviousOne() {
        var pyramid = ImagePyramid()
        var image = GrayImage(width: 37, height: 29)
        var state: UInt64 = 12345  // a small LCG: reproducible noise
        for i in 0..<image.pixels.count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            image.pixels[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
        pyramid.update(from: image, maximumLevels: 3, minimumSide: 4)
        XCTAssertEqual(pyramid.levels.count, 3)
        XCTAssertEqual(pyramid.levels[0], image)
        for level in 1..<3 {
            let src = pyramid.levels[level - 1], dst = pyramid.levels[level]
            XCTAssertEqual(dst.width, src.width / 2)
            XCTAssertEqual(dst.height, src.height / 2)
            for y in 0..<dst.height {
                for x in 0..<dst.width {
                    let sum = Int(src[2 * x, 2 * y]) + Int(src[2 * x + 1, 2 * y]) + Int(src[2 * x, 2 * y + 1]) + Int(src[2 * x + 1, 2 * y + 1])
                    XCTAssertEqual(Int(dst[x, y]), (sum + 2) / 4, "level \(level) (\(x), \(y))")
                }
            }
        }
    }

    func testHalvingRoundsHalvesUp() {
        var out = GrayImage(width: 0, height: 0)
        ImagePyramid.halve(GrayImage(width: 6, height: 2, pixels: [1, 2, 0, 0, 255, 255, 3, 4, 0, 1, 255, 254]), into: &out)
        // Means 2.5, 0.25, 254.75.
        XCTAssertEqual(out, GrayImage(width: 3, height: 1, pixels: [3, 0, 255]))
    }

    func testASmallerImageAfterALargerOneDropsTheExtraLevels() {
        var pyramid = ImagePyramid()
        pyramid.update(from: GrayImage(width: 400, height: 300, fill: 1), maximumLevels: 4)
        XCTAssertEqual(pyramid.levels.count, 3)  // 300, 150, 75 (37 would be below 48)
        pyramid.update(from: GrayImage(width: 90, height: 90, fill: 2), maximumLevels: 4)
        XCTAssertEqual(pyramid.levels.count, 1)
        XCTAssertEqual(pyramid.levels[0].pixels.first, 2)
    }
}
