import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A value line is given only when it reads the same in every view; auxiliary lines and lines already too
/// unsure are not read again.
struct ViewAgreementTests {
    /// Passes the located line's digit height on as the rectified line's, so the stub recognizer can tell the
    /// views apart.
    struct HeightRectifier: LineRectifying {
        var calls = 0
        mutating func rectify(_ line: TextLine, pyramid: ImagePyramid, into out: inout RectifiedLine) {
            calls += 1
            out.digitHeight = Int(line.digitHeight.rounded())
        }
    }

    /// Reads `12`, or `13` from crops taller than `misreadAbove`; sure of its characters by
    /// `confidence(height)` and of the line as a whole by `lineConfidence(height)`.
    struct StubRecognizer: CharacterRecognizer {
        var misreadAbove = Int.max
        var confidence: @Sendable (Int) -> Double = { _ in 0.9 }
        var lineConfidence: @Sendable (Int) -> Double = { _ in 1 }
        mutating func recognize(_ line: RectifiedLine) -> LineRecognition {
            let text = line.digitHeight > misreadAbove ? "13" : "12"
            let c = confidence(line.digitHeight)
            var read = LineRecognition(
                characters: text.map { RecognizedCharacter(character: $0, confidence: c, segments: [], box: .zero) },
                contrast: 100, hasGap: false)
            read.lineConfidence = lineConfidence(line.digitHeight)
            return read
        }
    }

    let views = [LineView(heightScale: 1.12), LineView(heightScale: 0.9), LineView(shiftAcross: 0.06)]

    func line(role: LineRole? = .value) -> TextLine {
        TextLine(candidates: [], polarity: .dark, centerX: 100, centerY: 50, angle: 0, length: 120, digitHeight: 40,
                 candidatesAreCharacters: false, role: role)
    }

    func check(_ line: TextLine, recognizer: StubRecognizer, minimum: Double = 0.5) -> (LineRecognition, Int) {
        var agreement = ViewAgreement(views: views)
        var rectifier: any LineRectifying = HeightRectifier()
        var first = recognizer
        var located = RectifiedLine()
        located.digitHeight = 40
        var read = first.recognize(located)
        var stub: any CharacterRecognizer = recognizer
        agreement.check(&read, of: line, minimumConfidence: minimum, pyramid: ImagePyramid(),
                        rectifier: &rectifier, recognizer: &stub)
        return (read, (rectifier as! HeightRectifier).calls)
    }

    @Test func aReadingThatStaysIsAsSureAsItsLeastSureView() {
        // The shorter view (36 px) is the least sure: 0.7.
        let (read, calls) = check(line(), recognizer: StubRecognizer(confidence: { $0 < 40 ? 0.7 : 0.9 }))
        #expect(calls == 3)
        #expect(String(read.characters.map(\.character)) == "12")
        #expect(abs(read.confidence - 0.7) < 1e-12)
        // The doubt is the line's: each character keeps its own confidence, so it is still told to be a digit.
        #expect(read.characters.allSatisfy { $0.confidence == 0.9 })
        #expect(!read.viewsDisagree)
    }

    @Test func aViewLessSureOfTheWholeLineLowersTheReading() {
        // Every character at 0.9 in every view, but the taller view (45 px) is sure of its path at 0.4 only.
        let (read, _) = check(line(), recognizer: StubRecognizer(lineConfidence: { $0 > 42 ? 0.4 : 0.8 }))
        #expect(abs(read.confidence - 0.4) < 1e-12)
        #expect(abs(read.lineConfidence - 0.4) < 1e-12)
    }

    @Test func aReadingThatChangesInOneViewIsNotSureAtAll() {
        // The taller view (45 px) reads 13.
        let (read, _) = check(line(), recognizer: StubRecognizer(misreadAbove: 42))
        #expect(String(read.characters.map(\.character)) == "12")
        #expect(read.characters.allSatisfy { $0.confidence == 0 })
        #expect(read.viewsDisagree)
    }

    @Test func clocksAndLinesAlreadyTooUnsureAreNotReadAgain() {
        let (clock, clockCalls) = check(line(role: .auxiliary), recognizer: StubRecognizer(misreadAbove: 42))
        #expect(clockCalls == 0)
        #expect(clock.characters.allSatisfy { $0.confidence == 0.9 })
        let (unsure, unsureCalls) = check(line(), recognizer: StubRecognizer(misreadAbove: 42), minimum: 0.95)
        #expect(unsureCalls == 0)
        #expect(unsure.characters.allSatisfy { $0.confidence == 0.9 })
        // Clear characters on a path the recognizer is unsure of: too unsure as a whole to be given.
        let (unsurePath, pathCalls) = check(
            line(), recognizer: StubRecognizer(misreadAbove: 42, lineConfidence: { _ in 0.3 }), minimum: 0.5)
        #expect(pathCalls == 0)
        #expect(unsurePath.confidence == 0.3)
    }

    @Test func noViewsNoCheck() {
        var agreement = ViewAgreement(views: [])
        var rectifier: any LineRectifying = HeightRectifier()
        var stub: any CharacterRecognizer = StubRecognizer(misreadAbove: 0)
        var plain = StubRecognizer()
        var read = plain.recognize(RectifiedLine())
        agreement.check(&read, of: line(), minimumConfidence: 0.5, pyramid: ImagePyramid(), rectifier: &rectifier, recognizer: &stub)
        #expect((rectifier as! HeightRectifier).calls == 0)
        #expect(read.characters.allSatisfy { $0.confidence == 0.9 })
    }

    @Test func aViewMovesTheLineAcrossItselfAndScalesIt() {
        let moved = LineView(heightScale: 1.5, shiftAcross: 0.25, lengthScale: 1.1).apply(to: line())
        #expect(abs(moved.centerX - 100) < 1e-9 && abs(moved.centerY - 60) < 1e-9)
        #expect(abs(moved.digitHeight - 60) < 1e-9 && abs(moved.length - 132) < 1e-9)
        // Reading downwards, "across towards the bottom of the characters" is towards -x.
        var down = line()
        down.angle = .pi / 2
        let turned = LineView(shiftAcross: 0.25).apply(to: down)
        #expect(abs(turned.centerX - 90) < 1e-9 && abs(turned.centerY - 50) < 1e-9)
    }

    @Test func viewsAreReadFromTheRecognizersMetadata() throws {
        let views = try #require(LineView.parse("[[1.12, 0.0, 1.0], [1.0, 0.06, 1.1]]"))
        #expect(views == [LineView(heightScale: 1.12), LineView(shiftAcross: 0.06, lengthScale: 1.1)])
        #expect(LineView.parse("[[1.12, 0.0]]") == nil)
        #expect(LineView.parse("[[0, 0, 1]]") == nil)
        #expect(LineView.parse("views") == nil)
    }
}
