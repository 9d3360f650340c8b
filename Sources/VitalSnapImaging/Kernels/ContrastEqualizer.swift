/// Contrast-limited adaptive histogram equalization (CLAHE): the image cut into `tiles` x `tiles` tiles, each
/// tile's grey levels spread over the whole range by its own histogram, clipped at `clipLimit` times the mean
/// bin so that a flat tile's noise is not blown up, and each pixel mapped by the four nearest tiles' maps,
/// bilinearly. Dim digits on a dim panel (a monitor's pulse row in the shadow of its bezel) come out as dark
/// against their own surroundings as the bright rows do against theirs.
///
/// One equalizer keeps its tables between images: equalizing images of one size again allocates nothing.
public struct ContrastEqualizer: Sendable {
    /// How far a tile's histogram may rise above its mean bin before it is clipped (and the excess spread over
    /// every level); 1 leaves the image almost as it is, larger spreads a tile's levels further.
    public var clipLimit: Double
    /// Tiles across and down.
    public var tiles: Int
    /// `tiles * tiles` maps of 256 levels each, row by row.
    private var maps: [UInt8] = []
    private var histogram = [Int](repeating: 0, count: 256)
    /// Per column of the last image: the offsets of the two tiles' maps either side of it in a row of tiles, and
    /// the weights of the second and the first.
    private var columns: [(Int, Int, Double, Double)] = []

    public init(clipLimit: Double, tiles: Int = 8) {
        self.clipLimit = clipLimit
        self.tiles = max(1, tiles)
    }

    /// `image` equalized into `out` (reshaped to its size).
    public mutating func equalize(_ image: GrayImage, into out: inout GrayImage) {
        out.reshape(width: image.width, height: image.height)
        guard !image.isEmpty else { return }
        let n = tiles
        if maps.count != n * n * 256 { maps = [UInt8](repeating: 0, count: n * n * 256) }
        // Tiles of one size, the image reflected beyond its right and bottom edges to fill the last ones (as
        // OpenCV's CLAHE does), so that a uniform image stays uniform.
        let tileWidth = (image.width + n - 1) / n, tileHeight = (image.height + n - 1) / n
        for ty in 0..<n {
            for tx in 0..<n { makeMap(image, x: tx * tileWidth, y: ty * tileHeight, tileWidth, tileHeight, into: (ty * n + tx) * 256) }
        }
        // Each pixel between the centres of the tiles around it: each column's two tiles and weight found once.
        columns.removeAll(keepingCapacity: true)
        for x in 0..<image.width {
            let (tx0, tx1, fx) = Self.neighbours(Double(x) / Double(tileWidth) - 0.5, n)
            columns.append((tx0 * 256, tx1 * 256, fx, 1 - fx))
        }
        image.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                maps.withUnsafeBufferPointer { map in
                    columns.withUnsafeBufferPointer { columns in
                        for y in 0..<image.height {
                            let (ty0, ty1, fy) = Self.neighbours(Double(y) / Double(tileHeight) - 0.5, n)
                            let top = map.baseAddress! + ty0 * n * 256, bottom = map.baseAddress! + ty1 * n * 256
                            let row = y * image.width
                            for x in 0..<image.width {
                                let (left, right, fx, gx) = columns[x]
                                let level = Int(src[row + x])
                                let a = Double(top[left + level]), b = Double(top[right + level])
                                let c = Double(bottom[left + level]), d = Double(bottom[right + level])
                                let value = (a * gx + b * fx) * (1 - fy) + (c * gx + d * fx) * fy
                                dst[row + x] = Self.rounded(value)
                            }
                        }
                    }
                }
            }
        }
    }

    /// `value` (0...255, or a rounding error beyond) rounded half away from zero, as `Double.rounded()` does,
    /// without its library call: a third of the time of the loop above.
    @inline(__always)
    static func rounded(_ value: Double) -> UInt8 {
        let whole = Int(value)  // truncated: the floor, the value being at least 0
        return UInt8(min(255, value - Double(whole) >= 0.5 ? whole + 1 : whole))
    }

    /// `i` reflected into `0..<count` about its ends, the end pixels not repeated (`dcb|abcd|cba`).
    @inline(__always)
    static func reflected(_ i: Int, _ count: Int) -> Int {
        guard count > 1 else { return 0 }
        let period = 2 * (count - 1)
        let k = i % period
        return k < count ? k : period - k
    }

    /// The two tiles whose centres lie either side of tile coordinate `t` (tile 0's centre at 0), and how far
    /// towards the second; at the borders both are the edge tile.
    @inline(__always)
    private static func neighbours(_ t: Double, _ n: Int) -> (Int, Int, Double) {
        let lower = t.rounded(.down)
        let first = Int(lower)
        return (min(n - 1, max(0, first)), min(n - 1, max(0, first + 1)), t - lower)
    }

    /// The clipped histogram's cumulative map of the tile of `width` x `height` pixels from (`x`, `y`), beyond
    /// the image reflected into it, into `maps` from `offset`.
    private mutating func makeMap(_ image: GrayImage, x: Int, y: Int, _ width: Int, _ height: Int, into offset: Int) {
        let count = width * height
        for level in 0..<256 { histogram[level] = 0 }
        image.pixels.withUnsafeBufferPointer { p in
            for row in y..<(y + height) {
                let base = Self.reflected(row, image.height) * image.width
                if x + width <= image.width {
                    for column in x..<(x + width) { histogram[Int(p[base + column])] += 1 }
                } else {
                    for column in x..<(x + width) { histogram[Int(p[base + Self.reflected(column, image.width)])] += 1 }
                }
            }
        }
        // Clipped at clipLimit times the mean bin; the excess shared among all levels, the remainder one each
        // over levels spread evenly.
        let limit = max(1, Int(clipLimit * Double(count) / 256))
        var excess = 0
        for level in 0..<256 where histogram[level] > limit {
            excess += histogram[level] - limit
            histogram[level] = limit
        }
        let share = excess / 256
        var remainder = excess - share * 256
        for level in 0..<256 { histogram[level] += share }
        if remainder > 0 {
            let step = max(1, 256 / remainder)
            var level = 0
            while level < 256 && remainder > 0 {
                histogram[level] += 1
                remainder -= 1
                level += step
            }
        }
        let scale = 255 / Double(count)
        var sum = 0
        for level in 0..<256 {
            sum += histogram[level]
            maps[offset + level] = UInt8(min(255, (Double(sum) * scale).rounded()))
        }
    }
}
