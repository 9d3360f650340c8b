import XCTest
@testable import VitalSnapImaging

final class OrientationTests: XCTestCase {
    // [1 2 3]
    // [4 5 6]
    private let small = Fixtures.counting(width: 3, height: 2)

    func testRotations() {
        XCTAssertEqual(small.rotated90Clockwise(), GrayImage(width: 2, height: 3, pixels: [4, 1, 5, 2, 6, 3]))
        XCTAssertEqual(small.rotated90CounterClockwise(), GrayImage(width: 2, height: 3, pixels: [3, 6, 2, 5, 1, 4]))
        XCTAssertEqual(small.rotated180(), GrayImage(width: 3, height: 2, pixels: [6, 5, 4, 3, 2, 1]))
    }

    func testMirrors() {
        XCTAssertEqual(small.mirroredHorizontally(), GrayImage(width: 3, height: 2, pixels: [3, 2, 1, 6, 5, 4]))
        XCTAssertEqual(small.mirroredVertically(), GrayImage(width: 3, height: 2, pixels: [4, 5, 6, 1, 2, 3]))
        XCTAssertEqual(small.transposed(), GrayImage(width: 2, height: 3, pixels: [1, 4, 2, 5, 3, 6]))
        XCTAssertEqual(small.transversed(), GrayImage(width: 2, height: 3, pixels: [6, 3, 5, 2, 4, 1]))
        XCTAssertEqual(small.applying(.up), small)
    }

    /// Reference: EXIF's definition of where stored row 0 / column 0 end up, pixel by pixel.
    private func reference(_ image: GrayImage, _ orientation: ExifOrientation) -> GrayImage {
        let w = image.width, h = image.height
        let swapped = orientation.swapsDimensions
        var out = GrayImage(width: swapped ? h : w, height: swapped ? w : h)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let (sx, sy): (Int, Int)
                switch orientation {
                case .up: (sx, sy) = (x, y)
                case .upMirrored: (sx, sy) = (w - 1 - x, y)
                case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                case .downMirrored: (sx, sy) = (x, h - 1 - y)
                case .leftMirrored: (sx, sy) = (y, x)
                case .right: (sx, sy) = (y, h - 1 - x)
                case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                case .left: (sx, sy) = (w - 1 - y, x)
                }
                out[x, y] = image[sx, sy]
            }
        }
        return out
    }

    func testLargeImagesAcrossTileBoundariesMatchTheReference() {
        // 131x70 is not a multiple of the 64-pixel tile in either direction.
        let image = Fixtures.noise(width: 131, height: 70, seed: 5)
        for orientation in ExifOrientation.allCases {
            XCTAssertEqual(image.applying(orientation), reference(image, orientation), "\(orientation)")
        }
    }

    func testInverses() {
        let image = Fixtures.noise(width: 9, height: 5, seed: 6)
        XCTAssertEqual(image.rotated90Clockwise().rotated90CounterClockwise(), image)
        XCTAssertEqual(image.rotated90Clockwise().rotated90Clockwise(), image.rotated180())
        XCTAssertEqual(image.transposed().transposed(), image)
        XCTAssertEqual(image.transversed().transversed(), image)
        XCTAssertEqual(image.mirroredHorizontally().mirroredVertically(), image.rotated180())
    }

    func testSingleRowColumnAndEmptyImages() {
        let row = Fixtures.counting(width: 4, height: 1)
        XCTAssertEqual(row.rotated90Clockwise(), GrayImage(width: 1, height: 4, pixels: [1, 2, 3, 4]))
        XCTAssertEqual(row.rotated90CounterClockwise(), GrayImage(width: 1, height: 4, pixels: [4, 3, 2, 1]))
        let empty = GrayImage(width: 0, height: 5)
        for orientation in ExifOrientation.allCases {
            let out = empty.applying(orientation)
            XCTAssertEqual(out.pixels.count, 0)
            XCTAssertEqual(out.width, orientation.swapsDimensions ? 5 : 0)
        }
    }

    func testApplyIntoReusesStorage() {
        let image = Fixtures.noise(width: 20, height: 10, seed: 8)
        var out = GrayImage(width: 40, height: 40)
        let before = out.pixels.withUnsafeBufferPointer { $0.baseAddress }
        image.apply(.right, into: &out)
        XCTAssertEqual(out, image.rotated90Clockwise())
        XCTAssertEqual(out.pixels.withUnsafeBufferPointer { $0.baseAddress }, before)
    }
}
