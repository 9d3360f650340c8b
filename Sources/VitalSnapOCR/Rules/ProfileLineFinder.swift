import VitalSnapImaging

/// Finds text lines in an image that is mostly display (a crop, or the overlay window of guided capture) from
/// its row profile: the rows where ink is, between rows where there is none, the way ssocr does. It needs no
/// whole-digit blobs, so it still works where segments are far apart or digits touch the bezel.
public struct ProfileLineFinder: Sendable {
    /// Share of the width ignored at each side (bezel edges run the full height there).
    public var sideMargin = 0.06
    public var minimumHeight = 12

    private var integral = IntegralImage()
    private var dark = InkMask(width: 0, height: 0)
    private var light = InkMask(width: 0, height: 0)
    private var profile: [Int] = []

    public init() {}

    public mutating func lines(in image: GrayImage) -> [TextLine] {
        guard image.width >= 16, image.height >= minimumHeight else { return [] }
        integral.update(from: image)
        let radius = max(6, min(image.width, image.height) / 6)
        AdaptiveThreshold(radius: radius, k: 0.25, minimumContrast: 12).apply(image, integral: integral, dark: &dark, light: &light)
        var out: [TextLine] = []
        out += bands(in: dark, polarity: .dark)
        out += bands(in: light, polarity: .light)
        return out
    }

    private mutating func bands(in mask: InkMask, polarity: InkPolarity) -> [TextLine] {
        let w = mask.width, h = mask.height
        let x0 = Int(Double(w) * sideMargin), x1 = w - x0
        profile.removeAll(keepingCapacity: true)
        for y in 0..<h { profile.append(mask.inkCount(in: PixelRect(x: x0, y: y, width: x1 - x0, height: 1))) }
        let sorted = profile.sorted()
        let strong = sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        guard strong > 0 else { return [] }
        // Rows through the vertical strokes of a short number carry far less ink than rows through the
        // horizontal segments of a long one: a low bar, so a `71` is not cut at its waist.
        let threshold = max(2, strong / 12)
        // Runs of inked rows. A line of digits can show up as one run or, where its segments leave an empty
        // row at the waist or a thin top bar stands apart, as two or three runs close together; lines stacked
        // closely (SYS above DIA) look the same. Propose each run and each merge of up to three neighbours,
        // and let reading decide.
        var runs: [ClosedRange<Int>] = []
        var y = 0
        while y < h {
            guard profile[y] >= threshold else { y += 1; continue }
            let top = y
            var bottom = y
            while y < h && (profile[y] >= threshold || (y + 1 < h && profile[y + 1] >= threshold)) {
                if profile[y] >= threshold { bottom = y }
                y += 1
            }
            runs.append(top...bottom)
        }
        var result: [TextLine] = []
        for first in runs.indices {
            for last in first..<min(runs.count, first + 3) {
                let top = runs[first].lowerBound, bottom = runs[last].upperBound
                let height = bottom - top + 1
                guard height >= minimumHeight, height >= h / 10 else { continue }
                // Merged runs must sit close: each gap at most a quarter of the whole height.
                let gaps = (first..<last).map { runs[$0 + 1].lowerBound - runs[$0].upperBound - 1 }
                guard gaps.allSatisfy({ Double($0) <= 0.25 * Double(height) }) else { continue }
                if let line = line(in: mask, top: top, height: height, x0: x0, x1: x1, polarity: polarity) {
                    result.append(line)
                }
            }
        }
        return result
    }

    private func line(in mask: InkMask, top: Int, height: Int, x0: Int, x1: Int, polarity: InkPolarity) -> TextLine? {
        // Horizontal extent: columns with ink inside the band.
        var first = -1, last = -1
        for x in x0..<x1 where mask.inkCount(in: PixelRect(x: x, y: top, width: 1, height: height)) > height / 8 {
            if first < 0 { first = x }
            last = x
        }
        guard first >= 0, last - first >= height / 2 else { return nil }
        let box = PixelRect(x: first, y: top, width: last - first + 1, height: height)
        let candidate = CharacterCandidate(box: box, fill: 0, polarity: polarity, level: 0)
        var line = TextLine(
            candidates: [candidate], polarity: polarity, centerX: box.midX, centerY: box.midY, angle: 0,
            length: Double(box.width), digitHeight: Double(height))
        line.candidatesAreCharacters = false
        return line
    }
}
