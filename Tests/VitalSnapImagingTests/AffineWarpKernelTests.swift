import XCTest
@testable import VitalSnapImaging

final class AffineWarpKernelTests: XCTestCase {
    private func warped(_ image: GrayImage, _ map: AffineMap, width: Int, height: Int) -> GrayImage {
        var out = GrayImage(width: 0, height: 0)
        image.warp(map, width: width, height: height, into: &out)
        return out
    }

    func testIdentityReproducesTheImage() {
        let image = Fixtures.noise(width: 23, height: 17, seed: 5)
        XCTAssertEqual(warped(image, .identity, width: 23, height: 17), image)
    }

    func testAPureTranslationShiftsThePixelsAndClampsAtTheEdges() {
        let image = Fixtures.noise(width: 20, height: 15, seed: 6)
        // Output (x, y) samples source (x + 3, y - 2).
        let out = warped(image, AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: -2), width: 20, height: 15)
        for y in 0..<15 {
            for x in 0..<20 {
                let sx = min(x + 3, 19), sy = max(y - 2, 0)  // beyond the border: the nearest edge pixel
                XCTAssertEqual(out[x, y], image[sx, sy], "(\(x), \(y))")
            }
        }
    }

    func testSamplesBeyondTheOuterEdgeTakeTheOutsideValueWhereOneIsGiven() {
        let image = Fixtures.noise(width: 20, height: 15, seed: 7)
        var out = GrayImage(width: 0, height: 0)
        // Output (x, y) samples source (x + 3.25, y - 2.25): columns from 17 and rows up to 1 fall beyond the
        // outer edge (x > 19.5, y < -0.5); the rest is the clamped warp's.
        let map = AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 3.25, ty: -2.25)
        image.warp(map, width: 20, height: 15, outside: 7, into: &out)
        let clamped = warped(image, map, width: 20, height: 15)
        for y in 0..<15 {
            for x in 0..<20 {
                let beyond = Double(x) + 3.25 > 19.5 || Double(y) - 2.25 < -0.5
                XCTAssertEqual(out[x, y], beyond ? 7 : clamped[x, y], "(\(x), \(y))")
            }
        }
        XCTAssertEqual(out[16, 2], clamped[16, 2])
        XCTAssertEqual(out[17, 2], 7)
    }

    func testHalfPixelShiftAveragesNeighbours() {
        let image = GrayImage(width: 4, height: 2, pixels: [0, 100, 200, 255, 10, 20, 31, 40])
        let out = warped(image, AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 0.5, ty: 0), width: 3, height: 2)
        // Means rounded half up: 50, 150, 227.5 -> 228; 15, 25.5 -> 26, 35.5 -> 36.
        XCTAssertEqual(out.pixels, [50, 150, 228, 15, 26, 36])
    }

    func testScalingAndTransposingMaps() {
        let image = Fixtures.counting(width: 8, height: 6)
        // Every second pixel.
        let half = warped(image, AffineMap(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0), width: 4, height: 3)
        for y in 0..<3 { for x in 0..<4 { XCTAssertEqual(half[x, y], image[2 * x, 2 * y]) } }
        // Swapping the axes: output (x, y) <- source (y, x).
        let transposed = warped(image, AffineMap(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0), width: 6, height: 8)
        XCTAssertEqual(transposed.width, 6)
        XCTAssertEqual(transposed.height, 8)
        for y in 0..<8 { for x in 0..<6 { XCTAssertEqual(transposed[x, y], image[y, x]) } }
    }

    func testAffineMapApply() {
        let map = AffineMap(a: 2, b: 0.5, c: -1, d: 3, tx: 10, ty: -4)
        let p = map.apply(4, 2)
        XCTAssertEqual(p.x, 2 * 4 + 0.5 * 2 + 10, accuracy: 1e-12)
        XCTAssertEqual(p.y, -1 * 4 + 3 * 2 - 4, accuracy: 1e-12)
        XCTAssertEqual(AffineMap.identity.apply(7.5, -3).x, 7.5)
        XCTAssertEqual(AffineMap.identity.apply(7.5, -3).y, -3)
    }
}
