import Foundation
import VitalSnapImaging

/// Stage: a look just before a line's first character, for a thin leading `1` its locator left out. A seven-segment
/// `1` is two strokes on the right of its cell, a gap's width from the digit before it, and a locator may start the
/// line after it: the recognizer then never sees it, and a pulse of 141 reads `41`, a weight of 111.1 `11.1`. The
/// line is cut again reaching `reach` digit heights further back and read; where that crop reads the same text with
/// a `1` before it, the line's `leadingOneProbability` becomes at least that reading's confidence, and the
/// assembler doubts the value where the longer one is plausible too (`ReadingAssembler.Configuration.leadingOneDoubt`):
/// the photo is refused, and no later look may give the shorter value (`Refusal.lacksLeadingOne`). Raising it
/// also where the longer crop read the same text but gave it a `1` more room (its own `leadingOneProbability`)
/// refused right readings without saving a wrong one (issue 41's families, docs/accuracy.md).
///
/// Input: a located line and what the recognizer read in its own crop. Output: the same reading, its leading-one
/// probability raised where the longer crop shows a `1`. Keeps its crop between lines.
public struct LeadingOneLook: Sendable {
    /// How far before the line (digit heights, along its reading direction) the longer crop reaches: a `1`'s cell
    /// and the gap before the next digit.
    public var reach: Double
    /// A `1` the locator left out is lit as the digits after it are; an unlit cell's ghost segments (a display
    /// that draws every cell's segments faintly) read as a `1` too, and doubt a scale's `35.7` as `135.7`. The
    /// `1` counts only where its ink lies at least this share (0...1) as far from the band's background as the
    /// rest of the line's ink does (`inkDepth`).
    public var minimumInkShare = 0.5
    /// The `1`'s ink is looked for this far (digit heights) either side of where the recognizer placed it, and no
    /// nearer the next character than halfway: a `1` is two strokes a fifth of a digit height wide.
    public var oneHalfWidth = 0.25
    /// A region's ink depth is how far the inkiest of its pixels, this share (0...1) of them, lie from the band's
    /// background (its median): a thin stroke's share of a cell, so one `1` is enough.
    public var inkPixelShare = 0.03
    private var crop = RectifiedLine()
    private var histogram = Histogram()

    public init(reach: Double) {
        self.reach = reach
    }

    /// `line` reaching `reach` digit heights further back along its reading direction, its end where it was.
    public func lengthened(_ line: TextLine) -> TextLine {
        var out = line
        let extra = reach * line.digitHeight
        out.length = line.length + extra
        out.centerX -= cos(line.angle) * extra / 2
        out.centerY -= sin(line.angle) * extra / 2
        return out
    }

    /// Reads `line` again in its lengthened crop and raises `read.leadingOneProbability` where that crop reads a
    /// `1` before the text. A reading with no digit, or one the longer crop reads otherwise, is left as it is.
    public mutating func look(
        at line: TextLine, read: inout LineTranscript, pyramid: ImagePyramid,
        rectifier: inout any LineRectifying, recognizer: inout any CharacterRecognizer
    ) throws(ReaderStageError) {
        guard read.characters.contains(where: { $0.character.isNumber }) else { return }
        rectifier.rectify(lengthened(line), pyramid: pyramid, into: &crop)
        let longer = try recognizer.recognize(crop)
        let text = read.characters.lazy.map(\.character), seen = longer.characters.lazy.map(\.character)
        if seen.first == "1" && seen.dropFirst().elementsEqual(text) && leadingOneIsLit(longer, in: crop) {
            read.leadingOneProbability = max(read.leadingOneProbability, longer.confidence)
        }
    }

    /// Whether the `1` that `longer` read first in `crop` is inked as deeply as the characters after it: its columns
    /// (`oneHalfWidth` either side of where the recognizer placed it, and no nearer the next character than
    /// halfway) against the rest of the line from that halfway, in the digit band, each by its ink depth. True
    /// where the crop's polarity is not known.
    mutating func leadingOneIsLit(_ longer: LineTranscript, in crop: RectifiedLine) -> Bool {
        guard let polarity = crop.polarity, longer.characters.count >= 2, crop.digitHeight > 0 else { return true }
        let one = longer.characters[0].box.midX, next = longer.characters[1].box.midX
        let half = oneHalfWidth * Double(crop.digitHeight)
        let split = Int(((one + next) / 2).rounded())
        let oneStart = max(0, Int((one - half).rounded())), oneEnd = min(Int((one + half).rounded()), split)
        guard oneStart < oneEnd, split < crop.image.width else { return true }
        func band(_ columns: Range<Int>) -> PixelRect {
            PixelRect(x: columns.lowerBound, y: crop.digitTop, width: columns.count, height: crop.digitHeight)
        }
        histogram.update(crop.image, in: band(0..<crop.image.width))
        let background = histogram.percentile(0.5)
        let lead = inkDepth(crop.image, band(oneStart..<oneEnd), polarity: polarity, background: background)
        let rest = inkDepth(crop.image, band(split..<crop.image.width), polarity: polarity, background: background)
        return Double(lead) >= minimumInkShare * Double(rest)
    }

    /// How far the inkiest `inkPixelShare` of the pixels of `region` lie from `background`.
    private mutating func inkDepth(_ image: GrayImage, _ region: PixelRect, polarity: InkPolarity, background: Int) -> Int {
        histogram.update(image, in: region)
        return polarity == .dark
            ? background - histogram.percentile(inkPixelShare) : histogram.percentile(1 - inkPixelShare) - background
    }
}
