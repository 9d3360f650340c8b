import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A line that holds two numbers side by side is cut at the gap between them; one number, however its digits
/// are spaced, is not.
struct LineGapSplitterTests {
    /// A detector's line from x 20 to 180 at y 50, 40 px digits; its crop is 2 frame pixels a crop pixel.
    let line = TextLine(
        candidates: [], polarity: .dark, centerX: 100, centerY: 50, angle: 0, length: 160, digitHeight: 40,
        candidatesAreCharacters: false, role: .value)

    /// The crop of `line`: 20 px digits from row 6, crop pixel (u, v) at frame (20 + 2u, 18 + 2v).
    var crop: RectifiedLine {
        var crop = RectifiedLine()
        crop.image = GrayImage(width: 80, height: 32, fill: 128)
        crop.digitTop = 6
        crop.digitHeight = 20
        crop.toFrame = AffineMap(a: 2, b: 0, c: 0, d: 2, tx: 20, ty: 18)
        return crop
    }

    /// `text` read with each character's box 10 px wide starting at the given crop column.
    func read(_ text: String, at columns: [Int]) -> LineTranscript {
        let characters = zip(text, columns).map { c, x in
            RecognizedCharacter(character: c, confidence: 0.9, segments: [], box: PixelRect(x: x, y: 6, width: 10, height: 20))
        }
        return LineTranscript(characters: characters, contrast: 100, hasGap: false)
    }

    @Test func twoNumbersSideBySideAreCutAtTheGapBetweenThem() throws {
        // `99` and `75`, 0.7 digit heights from centre to centre, 1.8 between the two numbers.
        var splitter = LineGapSplitter()
        let pieces = splitter.split(read("9975", at: [0, 14, 50, 64]), crop: crop, of: line)
        let (left, right) = try #require(pieces)
        // The cut midway between the second 9's end (column 24) and the 7's start (50): column 37, frame x 94.
        #expect(abs(left.centerX - 57) < 1e-9 && abs(left.length - 74) < 1e-9)
        #expect(abs(right.centerX - 137) < 1e-9 && abs(right.length - 86) < 1e-9)
        for piece in [left, right] {
            #expect(piece.centerY == 50 && piece.angle == 0 && piece.digitHeight == 40 && piece.role == .value)
        }
    }

    @Test func aLineAlongAnotherDirectionIsCutAlongIt() throws {
        // The same line reading straight down (a wrist monitor photographed turned): the crop's columns run down.
        var turned = line
        turned.angle = .pi / 2
        var down = crop
        down.toFrame = AffineMap(a: 0, b: -2, c: 2, d: 0, tx: 132, ty: -30)
        var splitter = LineGapSplitter()
        let pieces = splitter.split(read("9975", at: [0, 14, 50, 64]), crop: down, of: turned)
        let (top, bottom) = try #require(pieces)
        #expect(abs(top.centerY - 7) < 1e-9 && abs(top.centerX - 100) < 1e-9 && abs(top.length - 74) < 1e-9)
        #expect(abs(bottom.centerY - 87) < 1e-9 && abs(bottom.centerX - 100) < 1e-9 && abs(bottom.length - 86) < 1e-9)
    }

    @Test(arguments: [
        // One number with its digits spaced evenly wide (an electricity meter's drum): no gap stands out.
        ("19228", [0, 22, 44, 66, 88]),
        // A gap beside a decimal point is not one between numbers.
        ("90.57", [0, 14, 44, 50, 64]),
        // A single character on one side: a `1` or an icon beside a number, not a value.
        ("1749", [0, 36, 50, 64]),
        // The gap is wider than the others, but less than a digit height.
        ("1234", [0, 5, 22, 27]),
    ])
    func oneNumberIsNotCut(text: String, columns: [Int]) {
        var splitter = LineGapSplitter()
        let pieces = splitter.split(read(text, at: columns), crop: crop, of: line)
        #expect(pieces == nil)
    }

    @Test func theRuleBasedLocatorsLinesAreNotCut() {
        // Its lines are made of their characters' blobs, which it splits itself.
        var blobs = line
        blobs.candidatesAreCharacters = true
        var splitter = LineGapSplitter()
        let pieces = splitter.split(read("9975", at: [0, 14, 50, 64]), crop: crop, of: blobs)
        #expect(pieces == nil)
    }

    /// Through the reader: one located line that holds `99` and `75`; read whole it is `9975`, less sure than the
    /// assembler's cut of a merged line asks (`ReadingAssembler.Configuration.mergedLineConfidence`), each side
    /// read alone is its own number, sure.
    struct SideBySide: CharacterRecognizer {
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let middle = line.toFrame.apply(Double(line.image.width) / 2, 16).x
            let whole = line.image.width >= 80
            let text = whole ? "9975" : middle < 100 ? "99" : "75"
            let columns = whole ? [8, 22, 58, 72] : [8, 22]
            let characters = zip(text, columns).map { c, x in
                RecognizedCharacter(
                    character: c, confidence: whole ? 0.8 : 0.95, segments: [], box: PixelRect(x: x, y: 6, width: 12, height: 20))
            }
            return LineTranscript(characters: characters, contrast: 100, hasGap: false)
        }
    }

    @Test func anOximetersTwoValuesInOneLineAreReadApart() throws {
        let image = GrayImage(width: 200, height: 100, fill: 128)
        let wide = TextLine(candidates: [], polarity: .dark, centerX: 100, centerY: 50, angle: 0, length: 160,
                            digitHeight: 40, candidatesAreCharacters: false, role: .value)
        var oximeter = try SecondRecognizerTests().reader(
            first: SideBySide(), second: nil, peripheral: 6, unit: nil, line: wide)
        #expect(try oximeter.read(image: image).reading?.readingString == "99/75")
        // A plain numeric display has one value: its line is read whole, whatever its gaps.
        var numeric = try SecondRecognizerTests().reader(
            first: SideBySide(), second: nil, peripheral: 100, unit: nil, line: wide)
        #expect(try numeric.read(image: image).reading?.readingString == "9975")
    }
}
