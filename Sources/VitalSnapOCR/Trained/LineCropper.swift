import Foundation
import VitalSnapImaging

/// A text line's four corners in image pixels, in the text's own reading order (Training/README.md, "Line
/// geometry and the crop convention"): top-left of the first character, top-right of the last, bottom-right,
/// bottom-left. A line in a photo turned by 90 or 180 degrees still starts at its first character.
///
/// Coordinates are continuous: pixel (i, j) covers [i, i+1) x [j, j+1), its centre is (i + 0.5, j + 0.5).
/// The derived geometry follows the README: the direction `e` runs from the left edge's midpoint to the right
/// edge's, `d` is `e` turned by +90 degrees (from the top of the characters to their bottom in image
/// coordinates), the length is the distance between those midpoints, the digit height the distance between
/// the top and bottom edges (their midpoints' separation measured along `d`, exact for any parallelogram),
/// and the centre the mean of the four corners.
public struct LineQuad: Sendable, Hashable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The rectangle `length` long and `digitHeight` high around `center`, reading along `angle` (radians from
    /// the image's x axis, clockwise on screen since y points down).
    public init(center: Point, angle: Double, length: Double, digitHeight: Double) {
        let e = Point(x: cos(angle), y: sin(angle))
        let d = Point(x: -e.y, y: e.x)
        func corner(_ along: Double, _ across: Double) -> Point {
            Point(x: center.x + along * e.x + across * d.x, y: center.y + along * e.y + across * d.y)
        }
        self.init(
            topLeft: corner(-length / 2, -digitHeight / 2), topRight: corner(length / 2, -digitHeight / 2),
            bottomRight: corner(length / 2, digitHeight / 2), bottomLeft: corner(-length / 2, digitHeight / 2))
    }

    /// The corners in reading order: top-left, top-right, bottom-right, bottom-left.
    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The mean of the four corners.
    public var center: Point {
        Point(
            x: (topLeft.x + topRight.x + bottomRight.x + bottomLeft.x) / 4,
            y: (topLeft.y + topRight.y + bottomRight.y + bottomLeft.y) / 4)
    }

    private var leftMidpoint: Point { Point(x: (topLeft.x + bottomLeft.x) / 2, y: (topLeft.y + bottomLeft.y) / 2) }
    private var rightMidpoint: Point { Point(x: (topRight.x + bottomRight.x) / 2, y: (topRight.y + bottomRight.y) / 2) }

    /// Distance from the left edge's midpoint to the right edge's.
    public var length: Double {
        let l = leftMidpoint, r = rightMidpoint
        return ((r.x - l.x) * (r.x - l.x) + (r.y - l.y) * (r.y - l.y)).squareRoot()
    }

    /// The unit reading direction `e` (left edge's midpoint towards the right edge's); (1, 0) for a degenerate
    /// quad with both midpoints in one place.
    public var direction: Point {
        let l = leftMidpoint, r = rightMidpoint
        let n = length
        guard n > 0 else { return Point(x: 1, y: 0) }
        return Point(x: (r.x - l.x) / n, y: (r.y - l.y) / n)
    }

    /// `d`: the direction turned by +90 degrees, pointing from the top of the characters to their bottom.
    public var down: Point {
        let e = direction
        return Point(x: -e.y, y: e.x)
    }

    /// The reading direction as an angle in radians from the image's x axis (`atan2(e.y, e.x)`).
    public var angle: Double {
        let e = direction
        return atan2(e.y, e.x)
    }

    /// The distance between the top and bottom edges, measured along `down` between their midpoints.
    public var digitHeight: Double {
        let d = down
        let dx = (bottomLeft.x + bottomRight.x - topLeft.x - topRight.x) / 2
        let dy = (bottomLeft.y + bottomRight.y - topLeft.y - topRight.y) / 2
        return dx * d.x + dy * d.y
    }

    /// The quad with every corner moved by `transform` (the corners keep their roles).
    public func map(_ transform: (Point) -> Point) -> LineQuad {
        LineQuad(
            topLeft: transform(topLeft), topRight: transform(topRight),
            bottomRight: transform(bottomRight), bottomLeft: transform(bottomLeft))
    }
}

/// Cuts a line crop out of a grey image by the crop convention of Training/README.md: the input of the line
/// recognizer, and what the training-set generator writes for it.
///
/// The crop is `height` (32) rows high with the characters on rows `digitTop` to `digitBottom` (6 to 26, a
/// 20 px digit height) and `width(length:digitHeight:)` columns wide. With `s = h / 20` source pixels per crop
/// pixel, crop pixel (u, v) samples the source bilinearly at
/// `p = c + s (u + 0.5 - W/2) e + s (v + 0.5 - 16) d`, coordinates clamped to the image (edge pixels repeat).
/// Where `s > 2` the source is first halved `k = floor(log2 s)` times by 2x2 averaging, rounded half up (an
/// odd last row or column dropped), and sampled there with `s / 2^k`. Only the part of the image the crop
/// reaches is halved, which gives the same pixels as halving the whole image.
///
/// The cropper owns its scratch buffers: keep one per thread and reuse it, and a warmed-up cropper allocates
/// nothing.
public struct LineCropper: Sendable {
    /// Rows of every crop.
    public static let height = 32
    /// The digits' top row and the row below their bottom: characters fill rows 6 to 26.
    public static let digitTop = 6
    public static let digitBottom = 26
    /// `digitBottom - digitTop`: the digit height in crop pixels.
    public static let digitHeight = 20
    /// Columns of margin on each side of the line's length.
    public static let margin = 6
    public static let minimumWidth = 16
    public static let maximumWidth = 512

    /// Halved levels of the region the current crop needs (ping-pong).
    private var levelA = GrayImage(width: 0, height: 0)
    private var levelB = GrayImage(width: 0, height: 0)

    public init() {}

    /// `ceil4(round(20 L / h) + 12)`, at least 16 and at most 512. `round` is to the nearest, ties to even
    /// (as Python's `round`, which the training scripts use).
    public static func width(length: Double, digitHeight: Double) -> Int {
        guard digitHeight > 0, length.isFinite, digitHeight.isFinite else { return minimumWidth }
        let scaled = (Double(Self.digitHeight) * length / digitHeight).rounded(.toNearestOrEven)
        let columns = min(Double(maximumWidth), max(0, scaled)) + Double(2 * margin)
        let raw = Int(columns)
        let ceil4 = (raw + 3) / 4 * 4
        return min(maximumWidth, max(minimumWidth, ceil4))
    }

    public static func width(for quad: LineQuad) -> Int {
        width(length: quad.length, digitHeight: quad.digitHeight)
    }

    /// Source pixels per crop pixel: `h / 20`.
    public static func scale(for quad: LineQuad) -> Double { quad.digitHeight / Double(digitHeight) }

    /// The map from continuous crop coordinates to continuous image coordinates (both with pixel (i, j)
    /// covering [i, i+1) x [j, j+1)): crop pixel (u, v) is sampled at `apply(u + 0.5, v + 0.5)`, rows 6 and 26
    /// land on the quad's top and bottom edges and the crop's centre (W/2, 16) on the quad's centre.
    public static func cropToImage(_ quad: LineQuad) -> AffineMap {
        let w = Double(width(for: quad)), s = scale(for: quad)
        let c = quad.center, e = quad.direction, d = quad.down
        let cx = Double(height) / 2
        return AffineMap(
            a: s * e.x, b: s * d.x, c: s * e.y, d: s * d.y,
            tx: c.x - s * (w / 2) * e.x - s * cx * d.x,
            ty: c.y - s * (w / 2) * e.y - s * cx * d.y)
    }

    /// How many times the source is halved for a crop at `scale` source pixels per crop pixel:
    /// `floor(log2 s)` when `s > 2`, else 0.
    public static func halvings(scale s: Double) -> Int {
        guard s > 2, s.isFinite else { return 0 }
        var k = 0
        var t = s
        while t >= 2 {
            t /= 2
            k += 1
        }
        return k
    }

    /// Cuts the crop of `quad` out of `image` into `out` (reshaped to `width(for:) x 32`, storage reused) and
    /// returns `cropToImage(quad)`. An empty image, or a quad without height (its bottom edge not below its top
    /// edge), gives a crop of zeros.
    @discardableResult
    public mutating func crop(_ image: GrayImage, quad: LineQuad, into out: inout GrayImage) -> AffineMap {
        let outWidth = Self.width(for: quad)
        let toImage = Self.cropToImage(quad)
        guard !image.isEmpty, quad.digitHeight > 0 else {
            out.reshape(width: outWidth, height: Self.height)
            for i in out.pixels.indices { out.pixels[i] = 0 }
            return toImage
        }
        var k = Self.halvings(scale: Self.scale(for: quad))
        // A level needs at least one pixel each way; a tiny image is sampled at the deepest level it has.
        while k > 0 && ((image.width >> k) == 0 || (image.height >> k) == 0) { k -= 1 }
        let f = Double(1 << k)
        // Sampler coordinates at level k (pixel centres at integers): q = p / 2^k - 0.5, for integer (u, v).
        let m = toImage
        let sampler = m.toPixelCentres(shrunkBy: f)
        if k == 0 {
            image.warp(sampler, width: outWidth, height: Self.height, into: &out)
            return toImage
        }
        // The part of level k the samples reach (their corners, clamped as the sampler clamps, plus one
        // pixel each side for the bilinear taps and for rounding in the sampler's running sums).
        let levelWidth = image.width >> k, levelHeight = image.height >> k
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        let corners: [(u: Double, v: Double)] = [
            (0, 0), (Double(outWidth - 1), 0), (0, Double(Self.height - 1)), (Double(outWidth - 1), Double(Self.height - 1)),
        ]
        for (u, v) in corners {
            let q = sampler.apply(u, v)
            minX = min(minX, q.x); maxX = max(maxX, q.x)
            minY = min(minY, q.y); maxY = max(maxY, q.y)
        }
        func clampIndex(_ v: Double, _ upper: Int) -> Int {
            guard !v.isNaN else { return 0 }
            return Int(min(max(v, 0), Double(upper)).rounded(.down))
        }
        let x0 = max(0, clampIndex(minX, levelWidth - 1) - 1), x1 = min(levelWidth - 1, clampIndex(maxX, levelWidth - 1) + 2)
        let y0 = max(0, clampIndex(minY, levelHeight - 1) - 1), y1 = min(levelHeight - 1, clampIndex(maxY, levelHeight - 1) + 2)
        // Halve the matching source rectangle k times; its 2x2 blocks are those of the whole image's levels.
        halve(image, x: x0 << k, y: y0 << k, width: (x1 - x0 + 1) << k, height: (y1 - y0 + 1) << k, into: &levelA)
        for _ in 1..<k {
            halve(levelA, x: 0, y: 0, width: levelA.width, height: levelA.height, into: &levelB)
            swap(&levelA, &levelB)
        }
        var shifted = sampler
        shifted.tx -= Double(x0)
        shifted.ty -= Double(y0)
        levelA.warp(shifted, width: outWidth, height: Self.height, into: &out)
        return toImage
    }

    /// `crop(_:quad:into:)` into a new image.
    public mutating func crop(_ image: GrayImage, quad: LineQuad) -> (image: GrayImage, toImage: AffineMap) {
        var out = GrayImage(width: 0, height: 0)
        let map = crop(image, quad: quad, into: &out)
        return (out, map)
    }

    /// 2x2 means, rounded half up, of the rectangle (even width and height, inside `source`).
    private func halve(_ source: GrayImage, x: Int, y: Int, width: Int, height: Int, into out: inout GrayImage) {
        let ow = width / 2, oh = height / 2
        out.reshape(width: ow, height: oh)
        guard ow > 0, oh > 0 else { return }
        let stride = source.width
        source.pixels.withUnsafeBufferPointer { srcBuffer in
            out.pixels.withUnsafeMutableBufferPointer { dstBuffer in
                let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!
                for row in 0..<oh {
                    let top = src + (y + 2 &* row) &* stride + x, bottom = top + stride
                    let line = dst + row &* ow
                    for column in 0..<ow {
                        let i = column &<< 1
                        let sum = UInt16(top[i]) &+ UInt16(top[i &+ 1]) &+ UInt16(bottom[i]) &+ UInt16(bottom[i &+ 1])
                        line[column] = UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
                    }
                }
            }
        }
    }
}
