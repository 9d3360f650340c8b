import Foundation

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
    private var crop = RectifiedLine()

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
        if seen.first == "1" && seen.dropFirst().elementsEqual(text) {
            read.leadingOneProbability = max(read.leadingOneProbability, longer.confidence)
        }
    }
}
