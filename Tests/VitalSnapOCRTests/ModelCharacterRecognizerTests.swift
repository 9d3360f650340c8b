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
        let read = recognizer.recognize(line)
        try #require(!read.characters.isEmpty)
        #expect(abs(recognizer.probability(of: read, in: line, pointsOptional: false) - read.lineConfidence) < 1e-9)
    }

    @Test func anotherTextScoresLower() throws {
        var recognizer = try recognizer()
        let line = crop()
        let read = recognizer.recognize(line)
        try #require(!read.characters.isEmpty)
        var other = read
        other.characters[0].character = read.characters[0].character == "7" ? "4" : "7"
        #expect(recognizer.probability(of: other, in: line, pointsOptional: false) < 0.5 * read.lineConfidence)
        var shorter = read
        shorter.characters.removeLast()
        #expect(recognizer.probability(of: shorter, in: line, pointsOptional: false) < read.lineConfidence)
    }

    @Test func withPointsOptionalTheOtherCharactersAreScoredWithOrWithoutAPoint() throws {
        var recognizer = try recognizer()
        let line = crop()
        let read = recognizer.recognize(line)
        try #require(read.characters.contains { $0.character == "." })
        let strict = recognizer.probability(of: read, in: line, pointsOptional: false)
        let optional = recognizer.probability(of: read, in: line, pointsOptional: true)
        // Every alignment of the text with its point is one of its digits with the point counted as a blank.
        #expect(optional >= strict)
        // The text without its point: no probability strictly (the crop shows one), the same with points optional.
        var withoutPoint = read
        withoutPoint.characters.removeAll { $0.character == "." }
        #expect(recognizer.probability(of: withoutPoint, in: line, pointsOptional: false) < 0.5 * strict)
        #expect(abs(recognizer.probability(of: withoutPoint, in: line, pointsOptional: true) - optional) < 1e-12)
        // Digits are still judged: another digit scores low with points optional too.
        var other = read
        other.characters[0].character = read.characters[0].character == "7" ? "4" : "7"
        #expect(recognizer.probability(of: other, in: line, pointsOptional: true) < 0.5 * optional)
        // A point alone leaves nothing to judge.
        var point = read
        point.characters = read.characters.filter { $0.character == "." }
        #expect(recognizer.probability(of: point, in: line, pointsOptional: true) == 0)
    }

    @Test func aCharacterOutsideItsAlphabetOrACropTooSmallScoresNothing() throws {
        var recognizer = try recognizer()
        let line = crop()
        var read = recognizer.recognize(line)
        try #require(!read.characters.isEmpty)
        read.characters[0].character = "?"
        #expect(recognizer.probability(of: read, in: line, pointsOptional: false) == 0)
        #expect(recognizer.probability(of: recognizer.recognize(line), in: RectifiedLine(), pointsOptional: false) == 0)
        #expect(recognizer.probability(of: .empty, in: line, pointsOptional: false) == 0)
    }
}
