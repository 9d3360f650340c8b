import Foundation
import VitalSnapImaging

/// Stage: a located line that holds two numbers side by side, cut in two where its characters leave a wide gap.
///
/// Input: what the recognizer read in a line (`LineTranscript`, boxes in the crop's pixels), the crop and the
/// located line. Output: the two lines on either side of the widest gap, in the located line's geometry, or
/// nil where the line is one number.
///
/// A detector can mark two values on one baseline as one line: a fingertip oximeter's SpO2 and pulse side by
/// side (`99 PI 1.4 75`), a colour monitor's SYS and DIA. Read as one line, that is `0975`, which no field can take
/// apart. Within one number the characters follow each other at about 0.7 digit heights from centre to
/// centre (a `1` or a decimal point closer), evenly; between two numbers the gap is much wider. Each side is
/// then read as a line of its own, so each value is read, and judged sure or not, alone.
///
/// Only for lines not made of their characters' blobs (`TextLine.candidatesAreCharacters` false: a trained
/// detector's, the rule-based profile finder's); a line of blobs is already cut at wide gaps where it is found.
/// The reader asks it only for a peripheral with two values or more (`DisplayReader`).
public struct LineGapSplitter: Sendable {
    public struct Configuration: Sendable {
        /// The gap, from one character's centre to the next one's, is at least this many digit heights.
        public var minimumGap = 1.0
        /// ...and at least this many times the line's other such gaps (their median): the characters of one
        /// number follow each other evenly (a meter's widely spaced drum digits too), two numbers leave a gap
        /// much wider than that between them. Chosen on the generated BP and oximeter families: 1.8 or 2.0
        /// cut only lines that held two values (`97 99`, `82 139`, `80 62`), 1.6 cut one of 79 numeric photos
        /// too.
        public var minimumRatioToOtherGaps = 1.8
        /// Each side keeps at least this many characters other than points (a value has two digits or more).
        public var minimumCharacters = 2
        public init() {}
    }

    public var configuration: Configuration
    /// The line's gaps in digit heights, those beside a point left out (scratch, kept between lines).
    private var gaps: [Double] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The two lines on either side of the widest gap between `read`'s characters, where that gap is wide
    /// enough, not beside a decimal point, and each side holds a number's characters; nil otherwise.
    public mutating func split(_ read: LineTranscript, crop: RectifiedLine, of line: TextLine) -> (TextLine, TextLine)? {
        let characters = read.characters
        guard !line.candidatesAreCharacters, characters.count >= 2 * configuration.minimumCharacters,
            crop.digitHeight > 0
        else { return nil }
        // One pass: every gap from a character's centre to the next one's, and the widest (a gap beside a point
        // is not one between numbers).
        gaps.removeAll(keepingCapacity: true)
        var widest = (gap: 0.0, next: 0, index: 0)
        for k in 1..<characters.count where characters[k].character != "." && characters[k - 1].character != "." {
            let gap = (characters[k].box.midX - characters[k - 1].box.midX) / Double(crop.digitHeight)
            if gap > widest.gap { widest = (gap, k, gaps.count) }
            gaps.append(gap)
        }
        guard widest.gap >= configuration.minimumGap, gaps.count >= 2 else { return nil }
        func digits(_ side: ArraySlice<RecognizedCharacter>) -> Int { side.lazy.filter { $0.character != "." }.count }
        guard digits(characters[..<widest.next]) >= configuration.minimumCharacters,
            digits(characters[widest.next...]) >= configuration.minimumCharacters
        else { return nil }
        // The median of the other gaps.
        gaps.remove(at: widest.index)
        gaps.sort()
        let n = gaps.count
        let median = n % 2 == 1 ? gaps[n / 2] : (gaps[n / 2 - 1] + gaps[n / 2]) / 2
        guard widest.gap >= configuration.minimumRatioToOtherGaps * median else { return nil }
        // The cut, midway between the two characters, as a distance along the line from its centre.
        let x = (Double(characters[widest.next - 1].box.maxX) + Double(characters[widest.next].box.minX)) / 2
        let cut = crop.toFrame.apply(x, Double(crop.digitTop + crop.digitBottom) / 2)
        let along = (cut.x - line.centerX) * cos(line.angle) + (cut.y - line.centerY) * sin(line.angle)
        let start = -line.length / 2, end = line.length / 2
        guard along > start, along < end else { return nil }
        return (piece(of: line, from: start, to: along), piece(of: line, from: along, to: end))
    }

    /// The part of `line` from `a` to `b` along it (distances from its centre).
    private func piece(of line: TextLine, from a: Double, to b: Double) -> TextLine {
        var piece = line
        let middle = (a + b) / 2
        piece.centerX = line.centerX + middle * cos(line.angle)
        piece.centerY = line.centerY + middle * sin(line.angle)
        piece.length = b - a
        return piece
    }
}
