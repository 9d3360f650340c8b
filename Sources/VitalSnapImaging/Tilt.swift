import Foundation

/// A turn of an image by any angle about its centre onto a canvas that holds all of it: the geometry, to map
/// points between the image and the tilted one.
public struct Tilt: Sendable, Equatable {
    /// Radians, clockwise on screen (y points down), as the reader's line angles are measured.
    public let angle: Double
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// The tilted image's size: the upright box around the turned source.
    public let width: Int
    public let height: Int

    public init(angle: Double, sourceWidth: Int, sourceHeight: Int) {
        self.angle = angle
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        let c = abs(cos(angle)), s = abs(sin(angle))
        let w = Double(sourceWidth), h = Double(sourceHeight)
        // Less a hair, so that a quarter turn's cos(π/2) ~ 6e-17 does not add a column.
        width = max(1, Int((w * c + h * s - 1e-6).rounded(.up)))
        height = max(1, Int((w * s + h * c - 1e-6).rounded(.up)))
    }

    /// The point of the tilted image that shows source point (x, y) (continuous pixel coordinates).
    public func tilted(x: Double, y: Double) -> (x: Double, y: Double) {
        let dx = x - Double(sourceWidth) / 2, dy = y - Double(sourceHeight) / 2
        let c = cos(angle), s = sin(angle)
        return (Double(width) / 2 + c * dx - s * dy, Double(height) / 2 + s * dx + c * dy)
    }

    /// The source point that tilted point (x, y) shows.
    public func source(x: Double, y: Double) -> (x: Double, y: Double) { toSourceContinuous.apply(x, y) }

    /// `source(x:y:)` as a map of continuous coordinates: the one definition of the turn back.
    private var toSourceContinuous: AffineMap {
        let c = cos(angle), s = sin(angle)
        let w = Double(width) / 2, h = Double(height) / 2
        return AffineMap(
            a: c, b: s, c: -s, d: c,
            tx: Double(sourceWidth) / 2 - c * w - s * h, ty: Double(sourceHeight) / 2 + s * w - c * h)
    }

    /// The upright box around `rect` of the tilted image, in the source's pixels (clipped to the source).
    public func sourceBox(of rect: PixelRect) -> PixelRect {
        let corners = [
            source(x: Double(rect.minX), y: Double(rect.minY)), source(x: Double(rect.maxX), y: Double(rect.minY)),
            source(x: Double(rect.maxX), y: Double(rect.maxY)), source(x: Double(rect.minX), y: Double(rect.maxY)),
        ]
        let x0 = Int(corners.map(\.x).min()!.rounded(.down)), y0 = Int(corners.map(\.y).min()!.rounded(.down))
        let x1 = Int(corners.map(\.x).max()!.rounded(.up)), y1 = Int(corners.map(\.y).max()!.rounded(.up))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            .intersection(PixelRect(x: 0, y: 0, width: sourceWidth, height: sourceHeight))
    }
}

extension Tilt {
    /// `source(x:y:)` as a map from the tilted image's pixel centres to the source's, for `GrayImage.warp`.
    public var toSource: AffineMap { toSourceContinuous.betweenPixelCentres }
}

extension GrayImage {
    /// The image turned by `angle` radians (clockwise on screen) about its centre, bilinear, on a canvas that
    /// holds all of it (`Tilt`); the corners the turn uncovers take the mean of the image's border pixels, so
    /// that they continue its background rather than draw a frame of their own.
    public func tilted(by angle: Double) -> GrayImage {
        let tilt = Tilt(angle: angle, sourceWidth: width, sourceHeight: height)
        var out = GrayImage(width: 0, height: 0)
        warp(tilt.toSource, width: tilt.width, height: tilt.height, outside: isEmpty ? nil : borderMean, into: &out)
        return out
    }

    /// The mean of the pixels along the image's four edges (0 for an empty image).
    var borderMean: UInt8 {
        guard !isEmpty else { return 0 }
        var sum = 0, count = 0
        for x in 0..<width {
            sum += Int(self[x, 0]) + Int(self[x, height - 1])
            count += 2
        }
        for y in 0..<height {
            sum += Int(self[0, y]) + Int(self[width - 1, y])
            count += 2
        }
        return UInt8(sum / count)
    }
}
