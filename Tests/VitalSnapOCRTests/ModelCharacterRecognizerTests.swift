import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// The committed recognizer scores a given text in a crop (what `ViewAgreement` asks of every view) on the same
/// scale as its own reading's confidence.
@Suite struct ModelCharacterRecognizerTests {
    /// `12.5` in dark segments on a light crop, the digits on the crop convention's rows.
    func crop() -> RectifiedLine {
        let height = Double(LineCropper.digitBottom - LineCropper.digitTop)
        let font = SegmentText().scaled(height / SegmentText().height)
        var line = RectifiedLine()
        line.image = Frames.render(
            "12.5", as: font, width: 96, height: LineCropper.height,
            placement: Placement(x: 12, y: Double(LineCropper.digitTop)), background: 210, ink: 40)
        line.digitTop = LineCropper.digitTop
        line.digitHeight = LineCropper.digitBottom - LineCropper.digitTop
        return line
    }

    func recognizer() throws -> ModelCharacterRecognizer {
        let models = try ReaderModels.bundled()
        return ModelCharacterRecognizer(network: models.recognizer, info: models.recognizerInfo)
    }

    @Test func itsOwnReadingScoresItsLineConfidence() throws {
        var recognizer = try recognizer()
        let line = crop()
        let read = try recognizer.recognize(line)
        try #require(!read.characters.isEmpty)
        #expect(abs(try recognizer.probability(of: read, in: line, pointsMayDrop: false) - read.lineConfidence) < 1e-9)
    }

    @Test func anotherTextScoresLower() throws {
        var recognizer = try recognizer()
        let line = crop()
        let read = try recognizer.recognize(line)
        try #require(!read.characters.isEmpty)
        var other = read
        other.characters[0].character = read.characters[0].character == "7" ? "4" : "7"
        #expect(try recognizer.probability(of: other, in: line, pointsMayDrop: false) < 0.5 * read.lineConfidence)
        var shorter = read
        shorter.characters.removeLast()
        #expect(try recognizer.probability(of: shorter, in: line, pointsMayDrop: false) < read.lineConfidence)
    }

    @Test func whenPointsMayDropTheTextWithoutItsPointCountsToo() throws {
        var recognizer = try recognizer()
        let line = crop()
        let read = try recognizer.recognize(line)
        try #require(read.characters.contains { $0.character == "." })
        let strict = try recognizer.probability(of: read, in: line, pointsMayDrop: false)
        let mayDrop = try recognizer.probability(of: read, in: line, pointsMayDrop: true)
        var withoutPoint = read
        withoutPoint.characters.removeAll { $0.character == "." }
        let withoutStrict = try recognizer.probability(of: withoutPoint, in: line, pointsMayDrop: false)
        // Two texts: their probabilities add.
        #expect(abs(mayDrop - (strict + withoutStrict)) < 1e-12)
        #expect(mayDrop >= strict)
        // The crop shows the point: the text without it is unlikely, and has no point to drop.
        #expect(withoutStrict < 0.5 * strict)
        #expect(try recognizer.probability(of: withoutPoint, in: line, pointsMayDrop: true) == withoutStrict)
        // Digits are still judged.
        var other = read
        other.characters[0].character = read.characters[0].character == "7" ? "4" : "7"
        #expect(try recognizer.probability(of: other, in: line, pointsMayDrop: true) < 0.5 * mayDrop)
    }

    /// Output columns map back to crop columns at the file's stride: the characters' boxes lie on the ink, in
    /// reading order, from its first digit to its last.
    @Test func characterBoxesLieOnTheInkAtTheFilesStride() throws {
        var recognizer = try recognizer()
        let line = crop()
        let read = try recognizer.recognize(line)
        try #require(read.characters.count >= 3)
        let step = recognizer.info.columnsPerStep
        // The columns with ink in the digit band.
        let inked = (0..<line.image.width).filter { x in
            (line.digitTop..<(line.digitTop + line.digitHeight)).contains { y in line.image[x, y] < 128 }
        }
        let first = try #require(inked.first), last = try #require(inked.last)
        let centres = read.characters.map { Double($0.box.minX) + Double($0.box.width) / 2 }
        for (c, centre) in zip(read.characters, centres) {
            #expect(centre >= Double(first - step) && centre <= Double(last + step), "\(c.character) at \(centre)")
        }
        #expect(centres == centres.sorted())
        let third = Double(last - first) / 3
        #expect(centres[0] < Double(first) + third)
        #expect(centres[centres.count - 1] > Double(last) - third)
    }

    @Test func aCharacterOutsideItsAlphabetOrACropTooSmallScoresNothing() throws {
        var recognizer = try recognizer()
        let line = crop()
        var read = try recognizer.recognize(line)
        try #require(!read.characters.isEmpty)
        read.characters[0].character = "?"
        #expect(try recognizer.probability(of: read, in: line, pointsMayDrop: false) == 0)
        #expect(try recognizer.probability(of: try recognizer.recognize(line), in: RectifiedLine(), pointsMayDrop: false) == 0)
        #expect(try recognizer.probability(of: .empty, in: line, pointsMayDrop: false) == 0)
    }
}
