import Foundation
import Testing
@testable import VitalSnapImaging

/// An image turned by any angle: the canvas holds all of it, points map both ways, the uncovered corners take
/// the image's background.
struct TiltTests {
    @Test func theCanvasHoldsTheTurnedImage() {
        let quarter = Tilt(angle: Double.pi / 2, sourceWidth: 40, sourceHeight: 20)
        #expect((quarter.width, quarter.height) == (20, 40))
        let level = Tilt(angle: 0, sourceWidth: 40, sourceHeight: 20)
        #expect((level.width, level.height) == (40, 20))
        // 30 degrees: 40 cos + 20 sin = 44.64, 40 sin + 20 cos = 37.32.
        let thirty = Tilt(angle: Double.pi / 6, sourceWidth: 40, sourceHeight: 20)
        #expect((thirty.width, thirty.height) == (45, 38))
    }

    @Test func pointsMapToTheTiltedImageAndBack() {
        let tilt = Tilt(angle: 0.35, sourceWidth: 300, sourceHeight: 200)
        for (x, y) in [(0.0, 0.0), (300, 0), (150, 100), (17.5, 180.25)] {
            let t = tilt.tilted(x: x, y: y)
            let back = tilt.source(x: t.x, y: t.y)
            #expect(abs(back.x - x) < 1e-9 && abs(back.y - y) < 1e-9)
            #expect(t.x >= -1e-9 && t.x <= Double(tilt.width) + 1e-9 && t.y >= -1e-9 && t.y <= Double(tilt.height) + 1e-9)
        }
        // Clockwise on screen: the right end of the middle row goes down.
        let right = tilt.tilted(x: 300, y: 100), centre = tilt.tilted(x: 150, y: 100)
        #expect(right.y > centre.y)
    }

    @Test func aSpotMovesWhereTheGeometrySaysAndTheCornersTakeTheBackground() {
        var image = GrayImage(width: 120, height: 80, fill: 60)
        for y in 20..<30 { for x in 90..<100 { image[x, y] = 250 } }
        let angle = 20 * Double.pi / 180
        let tilted = image.tilted(by: angle)
        let tilt = Tilt(angle: angle, sourceWidth: 120, sourceHeight: 80)
        #expect((tilted.width, tilted.height) == (tilt.width, tilt.height))
        let spot = tilt.tilted(x: 95, y: 25)
        #expect(tilted[Int(spot.x), Int(spot.y)] == 250)
        // Where the spot was before the turn is background now.
        #expect(tilted[95, 25] == 60)
        // The top-left corner of the canvas shows nothing of the image: the border's mean, not an edge streak.
        #expect(tilted[0, 0] == 60 && tilted[tilt.width - 1, tilt.height - 1] == 60)
        #expect(image.tilted(by: 0) == image)
    }

    @Test func aBoxOfTheTiltedImageMapsBackToTheSource() {
        let tilt = Tilt(angle: -0.5, sourceWidth: 200, sourceHeight: 100)
        let t0 = tilt.tilted(x: 50, y: 40), t1 = tilt.tilted(x: 60, y: 50)
        let box = PixelRect(
            x: Int(min(t0.x, t1.x)), y: Int(min(t0.y, t1.y)), width: Int(abs(t1.x - t0.x)) + 1,
            height: Int(abs(t1.y - t0.y)) + 1)
        let back = tilt.sourceBox(of: box)
        #expect(back.contains(x: 55, y: 45))
        #expect(back.width < 40 && back.height < 40)
        #expect(tilt.sourceBox(of: PixelRect(x: 0, y: 0, width: tilt.width, height: tilt.height))
                == PixelRect(x: 0, y: 0, width: 200, height: 100))
    }
}
