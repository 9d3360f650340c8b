/// A 256-bin histogram of gray levels, with the statistics the reader needs from it.
public struct Histogram: Sendable {
    public private(set) var counts = [Int](repeating: 0, count: 256)
    public private(set) var total = 0

    public init() {}

    /// Histogram of the pixels of `rect` (clipped to the image).
    public init(_ image: GrayImage, in rect: PixelRect? = nil) {
        update(image, in: rect)
    }

    /// Makes this the histogram of the pixels of `rect` (clipped to the image), in its own storage: a histogram
    /// kept and updated for each image allocates nothing.
    public mutating func update(_ image: GrayImage, in rect: PixelRect? = nil) {
        counts.withUnsafeMutableBufferPointer { c in c.update(repeating: 0) }
        total = 0
        let r = (rect ?? image.bounds).intersection(image.bounds)
        guard !r.isEmpty else { return }
        image.pixels.withUnsafeBufferPointer { p in
            counts.withUnsafeMutableBufferPointer { c in
                for y in r.minY..<r.maxY {
                    let row = p.baseAddress! + y * image.width
                    for x in r.minX..<r.maxX { c[Int(row[x])] &+= 1 }
                }
            }
        }
        total = r.area
    }

    /// The level below which `fraction` of the pixels lie.
    public func percentile(_ fraction: Double) -> Int {
        guard total > 0 else { return 0 }
        let target = Int((Double(total) * fraction).rounded(.down))
        var seen = 0
        for v in 0..<256 {
            seen += counts[v]
            if seen > target { return v }
        }
        return 255
    }

    /// Otsu's threshold: the level that best separates the pixels into two classes (the first level of the
    /// upper class). Nil when the pixels are all one level.
    public func otsuThreshold() -> Int? {
        guard total > 0 else { return nil }
        var sumAll = 0.0
        for v in 0..<256 { sumAll += Double(v * counts[v]) }
        var sumBelow = 0.0, countBelow = 0
        var best = -1.0, bestLevel: Int? = nil
        for v in 0..<255 {
            countBelow += counts[v]
            sumBelow += Double(v * counts[v])
            let countAbove = total - countBelow
            guard countBelow > 0, countAbove > 0 else { continue }
            let meanBelow = sumBelow / Double(countBelow)
            let meanAbove = (sumAll - sumBelow) / Double(countAbove)
            let between = Double(countBelow) * Double(countAbove) * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best {
                best = between
                bestLevel = v + 1
            }
        }
        return bestLevel
    }
}
