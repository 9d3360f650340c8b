import XCTest
@testable import VitalSnapOCR
import VitalSnapImaging

final class PointExtentTests: XCTestCase {
    func testEnclosingRectOfAQuadIsThatOfItsCorners() {
        let quad = LineQuad(center: Point(x: 40.3, y: 17.9), angle: 2.5, length: 61, digitHeight: 13.2)
        XCTAssertEqual(PixelRect(enclosing: quad), PixelRect(enclosing: quad.corners))
        XCTAssertEqual(PixelRect(enclosing: [Point]()), .zero)
    }
}
