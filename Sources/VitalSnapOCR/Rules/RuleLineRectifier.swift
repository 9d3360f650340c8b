import Foundation
import VitalSnapImaging

/// Resamples a detected text line into a `RectifiedLine`: rotated level, scaled to a fixed digit height,
/// sheared upright, and inverted when the display shows light digits on a dark background.
///
/// The line found by detection is only a first guess: its angle comes from a few candidate centres and its
/// height from blobs that may be half digits. Both are refined on the pixels of a tall probe band first.
public struct RuleLineRectifier: LineRectifying {
    public var configuration: Configuration
    private var probe = GrayImage(width: 0, height: 0)
    private var probeMask = InkMask(width: 0, height: 0)
    private var separator = InkSeparator()
    private var profile: [Int] = []
    private var columnShift: [Int] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public mutating func rectify(_ detected: TextLine, pyramid: ImagePyramid, into out: inout RectifiedLine) {
        separator.configuration = configuration.inkSeparation
        let digitHeight = configuration.digitHeight, margin = configuration.margin
        var line = detected
        refine(&line, pyramid: pyramid)
        let (source, levelScale) = Self.level(for: line.digitHeight, target: digitHeight, pyramid: pyramid)
        let scale = Double(digitHeight) / line.digitHeight
        let reach = configuration.reachBeyondCandidates
        let outWidth = max(8, Int(((line.length + 2 * reach * line.digitHeight) * scale).rounded()))
        let outHeight = digitHeight + 2 * margin

        let upright = transform(line, shear: 0, scale: scale, outWidth: outWidth, outHeight: outHeight)
        sample(source, upright.scaled(by: 1 / levelScale), outWidth, outHeight, polarity: line.polarity, into: &probe)
        let shear = estimateShear(probe)
        let final = transform(line, shear: shear, scale: scale, outWidth: outWidth, outHeight: outHeight)
        if shear == 0 {
            swap(&out.image, &probe)
        } else {
            sample(source, final.scaled(by: 1 / levelScale), outWidth, outHeight, polarity: line.polarity, into: &out.image)
        }
        out.digitTop = margin
        out.digitHeight = digitHeight
        out.shear = shear
        out.toFrame = final
        out.frameBounds = pyramid.levels.first?.bounds ?? .zero
        out.polarity = nil
        // Where the detected candidates fall in the output (inverse of the map along the line). Refinement
        // can move the band off a candidate; one wholly outside says nothing about the characters.
        let cosA = cos(line.angle), sinA = sin(line.angle)
        out.candidateSpans = !detected.candidatesAreCharacters ? [] : detected.candidates.compactMap { c in
            let s0 = (Double(c.box.minX) - line.centerX) * cosA + (c.box.midY - line.centerY) * sinA
            let s1 = (Double(c.box.maxX) - line.centerX) * cosA + (c.box.midY - line.centerY) * sinA
            let o0 = Int((s0 * scale + Double(outWidth) / 2).rounded(.down))
            let o1 = Int((s1 * scale + Double(outWidth) / 2).rounded(.up))
            let (first, last) = (min(o0, o1), max(o0, o1))
            guard last >= 0, first <= outWidth - 1 else { return nil }
            return max(0, first)...min(outWidth - 1, last)
        }
    }

    /// Refines angle, vertical position and digit height on a probe band three digit heights tall, sampled
    /// over the candidates only (not the reach beyond them, which may hold a bezel or a unit label).
    mutating func refine(_ line: inout TextLine, pyramid: ImagePyramid) {
        let c = configuration
        let digitHeight = c.digitHeight
        let (source, levelScale) = Self.level(for: line.digitHeight, target: digitHeight, pyramid: pyramid)
        let scale = Double(digitHeight) / line.digitHeight
        let width = max(8, Int(((line.length + c.probeExtension * line.digitHeight) * scale).rounded()))
        let height = 3 * digitHeight
        let map = transform(line, shear: 0, scale: scale, outWidth: width, outHeight: height)
        sample(source, map.scaled(by: 1 / levelScale), width, height, polarity: line.polarity, into: &probe)
        let core = PixelRect(x: 0, y: digitHeight, width: width, height: digitHeight)
        let strokeRadius = max(c.minimumStrokeRadius, digitHeight / c.strokeRadiusDivisor)
        guard separator.separate(probe, strokeRadius: strokeRadius, thresholdRegion: core, into: &probeMask) != nil
        else { return }

        // Angle: the rotation whose row profile is peakiest (tops, middles and bottoms of digits line up).
        let cx = Double(width) / 2
        var bestAngle: Double = 0, bestScore = -1
        for delta in c.angleSteps {
            rowProfile(rotatedBy: delta, centerX: cx)
            var score = 0
            for n in profile { score &+= n &* n }
            if score > bestScore + bestScore / c.angleImprovementDivisor || (delta == 0 && score >= bestScore) {
                bestScore = score
                bestAngle = delta
            }
        }
        rowProfile(rotatedBy: bestAngle, centerX: cx)
        // Band: the rows with ink around the middle, allowing the thin gaps between a digit's segments.
        let peak = profile.max() ?? 0
        guard peak > 0 else { return }
        let floor = max(1, peak / c.bandRowDivisor)
        let middle = height / 2
        var top = middle, bottom = middle
        var misses = 0
        while top > 0 && misses <= c.maximumBandGapRows { top -= 1; misses = profile[top] >= floor ? 0 : misses + 1 }
        top += misses
        misses = 0
        while bottom < height - 1 && misses <= c.maximumBandGapRows {
            bottom += 1
            misses = profile[bottom] >= floor ? 0 : misses + 1
        }
        bottom -= misses
        let found = Double(bottom - top + 1)
        line.angle += bestAngle
        // Trust the band only near the detected height: more often means a logo or the next line touches it.
        // A row profile's band may have taken in a logo or label just above or below: it may shrink further.
        let lowest = line.candidatesAreCharacters ? c.minimumBandHeight : c.minimumProfileBandHeight
        guard found >= lowest * Double(digitHeight), found <= c.maximumBandHeight * Double(digitHeight) else { return }
        // Move the centre across the line to the band's middle and take its height as the digit height.
        let shift = (Double(top + bottom + 1) / 2 - Double(height) / 2) / scale
        line.centerX += -sin(line.angle) * shift
        line.centerY += cos(line.angle) * shift
        line.digitHeight = found / scale
    }

    /// Ink per output row after rotating the probe by `delta` about its centre column.
    mutating func rowProfile(rotatedBy delta: Double, centerX: Double) {
        let w = probeMask.width, h = probeMask.height
        let slope = tan(delta)
        profile.removeAll(keepingCapacity: true)
        profile.append(contentsOf: repeatElement(0, count: h))
        // The shift depends on the column only: worked out once per column, not once per ink pixel.
        columnShift.removeAll(keepingCapacity: true)
        for x in 0..<w { columnShift.append(Int(((Double(x) - centerX) * slope).rounded())) }
        probeMask.pixels.withUnsafeBufferPointer { m in
            columnShift.withUnsafeBufferPointer { shift in
                profile.withUnsafeMutableBufferPointer { p in
                    for y in 0..<h {
                        let row = m.baseAddress! + y * w
                        for x in 0..<w where row[x] != 0 {
                            let ry = y &- shift[x]
                            if ry >= 0 && ry < h { p[ry] &+= 1 }
                        }
                    }
                }
            }
        }
    }

    /// The coarsest pyramid level that still has the target resolution, so that shrinking a large digit by
    /// bilinear sampling does not alias its thin strokes.
    static func level(for digitHeight: Double, target: Int, pyramid: ImagePyramid) -> (GrayImage, Double) {
        var level = 0
        while level + 1 < pyramid.levels.count, digitHeight / Double(1 << (level + 1)) >= Double(target) {
            level += 1
        }
        return (pyramid.levels[level], Double(1 << level))
    }

    func sample(_ source: GrayImage, _ map: AffineMap, _ width: Int, _ height: Int, polarity: InkPolarity, into out: inout GrayImage) {
        source.warp(map, width: width, height: height, into: &out)
        if polarity == .light { Self.invert(&out) }
    }

    /// Output (x, y) -> frame: x runs along the line, y across it; `shear` moves the top right.
    func transform(_ line: TextLine, shear: Double, scale: Double, outWidth: Int, outHeight: Int) -> AffineMap {
        let cosA = cos(line.angle), sinA = sin(line.angle)
        let ox = Double(outWidth) / 2, oy = Double(outHeight) / 2
        // s = (x - ox)/scale along the line, v = (y - oy)/scale across; source along = s - shear * v.
        // frame = centre + along * (cos, sin) + v * (-sin, cos)
        let inv = 1 / scale
        let a = inv * cosA
        let b = inv * (-shear * cosA - sinA)
        let c = inv * sinA
        let d = inv * (-shear * sinA + cosA)
        let tx = line.centerX - a * ox - b * oy
        let ty = line.centerY - c * ox - d * oy
        return AffineMap(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    /// The slant that makes vertical strokes most vertical: the one whose column histogram of ink is peakiest.
    mutating func estimateShear(_ image: GrayImage) -> Double {
        let c = configuration
        let digitHeight = c.digitHeight
        let band = PixelRect(x: 0, y: c.margin, width: image.width, height: digitHeight)
        let strokeRadius = max(c.minimumStrokeRadius, digitHeight / c.strokeRadiusDivisor)
        separator.separate(image, strokeRadius: strokeRadius, thresholdRegion: band, into: &probeMask)
        let w = image.width
        let pad = digitHeight + 2
        // Only the vertical strokes tell the slant: keep pixels in short horizontal runs, dropping the bars
        // (a, g, d), whose long runs would otherwise dominate the columns.
        let longestStrokeRun = max(c.minimumLongestStrokeRun, digitHeight / c.longestStrokeRunDivisor)
        probeMask.pixels.withUnsafeMutableBufferPointer { m in
            for y in band.minY..<band.maxY {
                var x = 0
                let row = y * w
                while x < w {
                    guard m[row + x] != 0 else { x += 1; continue }
                    let start = x
                    while x < w && m[row + x] != 0 { x += 1 }
                    if x - start > longestStrokeRun { for i in start..<x { m[row + i] = 0 } }
                }
            }
        }
        var best: Double = 0, bestScore = -1
        for shear in c.shears {
            profile.removeAll(keepingCapacity: true)
            profile.append(contentsOf: repeatElement(0, count: w + 2 * pad))
            probeMask.pixels.withUnsafeBufferPointer { m in
                for y in band.minY..<band.maxY {
                    // Undo the slant: a pixel above the middle moves left by shear * distance.
                    let shift = Int((shear * Double(y - (band.minY + digitHeight / 2))).rounded())
                    let row = m.baseAddress! + y * w
                    for x in 0..<w where row[x] != 0 { profile[x + shift + pad] &+= 1 }
                }
            }
            var score = 0
            for n in profile { score &+= n &* n }
            if score > bestScore + bestScore / c.shearImprovementDivisor || (shear == 0 && score >= bestScore) {
                bestScore = score
                best = shear
            }
        }
        return best
    }

    static func invert(_ image: inout GrayImage) {
        image.pixels.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count { p[i] = 255 &- p[i] }
        }
    }
}

extension AffineMap {
    /// The same map followed by a scaling of the result (frame coordinates into a pyramid level's).
    public func scaled(by factor: Double) -> AffineMap {
        AffineMap(a: a * factor, b: b * factor, c: c * factor, d: d * factor, tx: tx * factor, ty: ty * factor)
    }
}
