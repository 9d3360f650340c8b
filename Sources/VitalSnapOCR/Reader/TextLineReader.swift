import Foundation
import VitalSnapImaging

/// Finds and reads every text line in a gray frame. The chain, in order:
///
/// 1. the frame brought to a working size and halved into a pyramid (`ImagePyramid`);
/// 2. *locate*: the lines, by the stages' `LineLocator`;
/// 3. *rectify*: each line resampled upright, by its `LineRectifying`;
/// 4. *recognize*: its characters, by the `CharacterRecognizer`; a value line read again in other views
///    (`ViewAgreement`) where the recognizer was calibrated with them;
/// 5. lines read twice (both polarities, two detectors, pieces of a larger line) reduced to their best reading.
///
/// Owns all its buffers, so one reader per stream allocates little once warmed up.
public struct TextLineReader: Sendable {
    public struct Configuration: Sendable {
        /// Frames are brought to a long side within this range before detection.
        public var workingLongSide = 400...1600
        public var maximumLevels = 4
        /// Lines read per frame, most prominent first.
        public var maximumLines = 40
        /// Keep each line's rectified image in `rectifiedLines` (for `vitalsnap inspect`; costs copies).
        public var keepsRectifiedLines = false
        public init() {}
    }

    public var configuration: Configuration
    /// Locate, rectify, recognize: the replaceable stages.
    public var stages: LineReadingStages
    /// The frame at working resolution, as detection saw it (for inspection).
    public var working: GrayImage { pyramid.levels.first ?? GrayImage(width: 0, height: 0) }
    /// The frame at working resolution and its halvings.
    public private(set) var pyramid = ImagePyramid()
    private var scaled = GrayImage(width: 0, height: 0)
    private var scratch = GrayImage(width: 0, height: 0)
    private var rectified = RectifiedLine()
    /// The lines located in the last `read`, before reading (for inspection).
    public private(set) var detectedLines: [TextLine] = []
    /// Every line read in the last `read`, before duplicates were dropped: what each hypothesis gave.
    /// Written out when asked for: the read keeps only what each entry needs.
    public var lineLog: [String] { logEntries.map(\.description) }
    /// The rectified image of each line returned by the last `read`, when the configuration asks for them.
    public private(set) var rectifiedLines: [RectifiedLine] = []
    private var logEntries: [LogEntry] = []
    /// The lines the last `read` returned, and its working lists: kept so that a reader whose caller has let go of
    /// the last frame's lines reads the next frame without allocating them again.
    private var found: [RecognizedLine] = []
    private var quality: [Double] = []
    private var claimed: [(box: PixelRect, height: Double)] = []
    private var ranked: [(quality: Double, height: Double, index: Int)] = []
    private var keep: [Bool] = []

    public init(configuration: Configuration = .init(), stages: LineReadingStages = .rules) {
        self.configuration = configuration
        self.stages = stages
    }

    /// The lines found in `image`, most prominent (tallest digits) first, in `image` coordinates.
    /// - Parameter wholeImageIsDisplay: the image is a crop of the display (or the overlay window), so its
    ///   row profile also proposes lines.
    public mutating func read(_ image: GrayImage, wholeImageIsDisplay: Bool = false) -> [RecognizedLine] {
        guard image.width >= 8, image.height >= 8 else { return [] }
        let factor = prepare(image)
        // The last frame's lines are let go of first: a locator may reuse the storage they share with it.
        detectedLines = []
        let lines = stages.locator.locate(in: pyramid, wholeImageIsDisplay: wholeImageIsDisplay)
        detectedLines = lines
        found.removeAll(keepingCapacity: true)
        quality.removeAll(keepingCapacity: true)
        rectifiedLines.removeAll(keepingCapacity: true)
        // Regions already read as a taller line: smaller lines inside them are pieces of those digits
        // (a segment found at a finer pyramid level), not numbers of their own.
        claimed.removeAll(keepingCapacity: true)
        logEntries.removeAll(keepingCapacity: true)
        for line in lines {
            if found.count >= configuration.maximumLines { break }
            let box = line.boundingBox
            let inside = claimed.contains { c in
                line.digitHeight < 0.8 * c.height && Double(box.intersection(c.box).area) >= 0.4 * Double(box.area)
            }
            if inside { logEntries.append(LogEntry(digitHeight: line.digitHeight, box: box, read: nil)); continue }
            stages.rectifier.rectify(line, pyramid: pyramid, into: &rectified)
            var read = stages.recognizer.recognize(rectified)
            stages.agreement.check(
                &read, of: line, minimumConfidence: stages.minimumConfidence, pyramid: pyramid,
                rectifier: &stages.rectifier, recognizer: &stages.recognizer)
            logEntries.append(LogEntry(digitHeight: line.digitHeight, box: box, read: read))
            guard !read.characters.isEmpty else { continue }
            let r = rectified
            // Rectified pixel -> working frame -> caller's image (pixel centres: (p + 0.5) / factor - 0.5).
            let m = r.toFrame, s = 1 / factor
            let frameToImage = AffineMap(a: s, b: 0, c: 0, d: s, tx: 0.5 * s - 0.5, ty: 0.5 * s - 0.5)
            let t = frameToImage.apply(m.tx, m.ty)
            let toImageMap = AffineMap(a: m.a * s, b: m.b * s, c: m.c * s, d: m.d * s, tx: t.x, ty: t.y)
            let toImage: (Double, Double) -> Point = { x, y in
                let p = toImageMap.apply(x, y)
                return Point(x: p.x, y: p.y)
            }
            let x0 = Double(read.characters.lazy.map { $0.box.minX }.min()!)
            let x1 = Double(read.characters.lazy.map { $0.box.maxX }.max()!)
            let y0 = Double(r.digitTop), y1 = Double(r.digitBottom)
            var recognized = RecognizedLine(
                characters: read.characters, confidence: read.confidence, digitHeight: r.frameDigitHeight / factor,
                polarity: rectified.polarity ?? line.polarity, role: line.role,
                corners: LineQuad(
                    topLeft: toImage(x0, y0), topRight: toImage(x1, y0), bottomRight: toImage(x1, y1),
                    bottomLeft: toImage(x0, y1)),
                contrast: read.contrast, hasGap: read.hasGap, noise: read.noise)
            recognized.toImage = toImageMap
            recognized.viewsDisagree = read.viewsDisagree
            recognized.polarityIsSure = rectified.polarity == nil || rectified.polarityIsSure
            if !line.candidatesAreCharacters {
                recognized.locatedBox = PixelRect(enclosing: line.quad.map { c in
                    let p = frameToImage.apply(c.x, c.y)
                    return Point(x: p.x, y: p.y)
                })
            }
            // Characters read off the edge of the frame (where the line's extension was filled with edge
            // pixels) are not on the display.
            let readBox = recognized.boundingBox
            guard Double(readBox.intersection(image.bounds).area) >= 0.7 * Double(max(1, readBox.area)) else { continue }
            let clear = recognized.clearCharacterCount
            // Two or more characters that are seven-segment shapes at all (however faint) make this a line of
            // digits; lines of half its height inside it are its digits' halves or segments. Minus signs do not
            // count: two bars of a large, blurred frame read as `--` and would claim the digits inside it.
            let shaped = recognized.characters.lazy.filter { !"?.-".contains($0.character) }.count
            if shaped >= 2 && !read.hasGap { claimed.append((box, line.digitHeight)) }
            found.append(recognized)
            // Texture and wrong-polarity readings (see `noise`) lose to any real reading of the same place.
            let noisy = recognized.isTexture ? -10.0 : 0
            quality.append(Double(clear) - 2 * Double(recognized.unclearCharacterCount) + (read.hasGap ? -1 : 0) + noisy)
            if configuration.keepsRectifiedLines { rectifiedLines.append(rectified) }
        }
        // The same digits found twice (both polarities, two detectors): keep the better reading.
        keep.removeAll(keepingCapacity: true)
        keep.append(contentsOf: repeatElement(true, count: found.count))
        ranked.removeAll(keepingCapacity: true)
        for i in found.indices { ranked.append((quality[i], found[i].digitHeight, i)) }
        ranked.sort { ($0.quality, $0.height) > ($1.quality, $1.height) }
        for n in ranked.indices where keep[ranked[n].index] {
            let i = ranked[n].index
            let a = found[i].boundingBox
            for other in ranked[(n + 1)...] where keep[other.index] {
                let j = other.index
                let b = found[j].boundingBox
                let overlap = Double(a.intersection(b).area)
                // Only lines of about the same height are rival readings of the same digits; a much smaller
                // line overlapping a larger one is something else (a unit label, the time under the value).
                let ratio = max(found[i].digitHeight, found[j].digitHeight) / min(found[i].digitHeight, found[j].digitHeight)
                if ratio < 1.35 && overlap >= 0.5 * Double(min(a.area, b.area)) { keep[j] = false }
            }
        }
        if configuration.keepsRectifiedLines { Self.removeAll(from: &rectifiedLines, notKept: keep) }
        Self.removeAll(from: &found, notKept: keep)
        return found
    }

    /// Drops the elements whose `keep` is false, in place, the others in their order.
    private static func removeAll<Element>(from elements: inout [Element], notKept keep: [Bool]) {
        var kept = 0
        for i in elements.indices where keep[i] {
            elements.swapAt(kept, i)
            kept += 1
        }
        elements.removeLast(elements.count - kept)
    }

    /// Brings `image` into the working range (large photos halved, tiny crops doubled) and builds the pyramid
    /// from it; returns the factor from `image` to the working size.
    private mutating func prepare(_ image: GrayImage) -> Double {
        var factor = 1.0
        let longSide = max(image.width, image.height)
        if longSide > configuration.workingLongSide.upperBound {
            var f = 1
            while longSide / f > configuration.workingLongSide.upperBound { f *= 2 }
            factor = 1 / Double(f)
        } else if longSide < configuration.workingLongSide.lowerBound {
            var f = 1
            while longSide * f < configuration.workingLongSide.lowerBound { f *= 2 }
            factor = Double(f)
        }
        if factor == 1 {
            pyramid.update(from: image, maximumLevels: configuration.maximumLevels)
        } else if factor < 1 {
            // Average down by halving so thin strokes survive.
            ImagePyramid.halve(image, into: &scaled)
            var f = factor * 2
            while f < 1 {
                ImagePyramid.halve(scaled, into: &scratch)
                swap(&scaled, &scratch)
                f *= 2
            }
            pyramid.update(from: scaled, maximumLevels: configuration.maximumLevels)
        } else {
            let w = max(1, Int(Double(image.width) * factor)), h = max(1, Int(Double(image.height) * factor))
            let inv = 1 / factor
            // Sample at pixel centres: output (x + 0.5) / factor - 0.5.
            let map = AffineMap(a: inv, b: 0, c: 0, d: inv, tx: 0.5 * inv - 0.5, ty: 0.5 * inv - 0.5)
            image.warp(map, width: w, height: h, into: &scaled)
            pyramid.update(from: scaled, maximumLevels: configuration.maximumLevels)
        }
        return factor
    }
}

extension TextLineReader {
    /// One line of `lineLog`: a located line skipped inside a read one (`read` nil), or what reading it gave.
    struct LogEntry: Sendable, CustomStringConvertible {
        var digitHeight: Double
        var box: PixelRect
        var read: LineTranscript?

        var description: String {
            guard let read else { return "h=\(Int(digitHeight)) \(box): inside a read line" }
            return "h=\(Int(digitHeight)) \(box) -> '\(String(read.characters.map(\.character)))' gap=\(read.hasGap)"
        }
    }
}
