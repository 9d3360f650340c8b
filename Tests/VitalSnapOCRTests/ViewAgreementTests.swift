import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A value line's confidence is its text's, taken together over the located crop and its views (a geometric
/// mean); auxiliary lines are not read again. Checked through the reader itself, with stand-in stages: a locator
/// that finds one line, a rectifier that passes its digit height on, a recognizer that reads by that height.
struct ViewAgreementTests {
    /// Finds `line`, whatever the frame.
    struct OneLine: LineLocator {
        var line: TextLine
        func locate(in frame: WorkingFrame) -> [TextLine] { [line] }
    }

    /// Passes the located line's digit height on as the rectified line's, so the stub recognizer can tell the
    /// views apart.
    struct HeightRectifier: LineRectifying {
        var calls = 0
        mutating func rectify(_ line: TextLine, pyramid: ImagePyramid, into out: inout RectifiedLine) {
            calls += 1
            out.digitHeight = Int(line.digitHeight.rounded())
        }
    }

    /// Reads `text(height)` (`12`), or `13` from crops taller than `misreadAbove`; sure of its characters by
    /// `confidence(height)` and of the line as a whole by `lineConfidence(height)`.
    struct StubRecognizer: CharacterRecognizer {
        var misreadAbove = Int.max
        var text: @Sendable (Int) -> String = { _ in "12" }
        var confidence: @Sendable (Int) -> Double = { _ in 0.9 }
        var lineConfidence: @Sendable (Int) -> Double = { _ in 1 }
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let text = line.digitHeight > misreadAbove ? "13" : text(line.digitHeight)
            let c = confidence(line.digitHeight)
            var read = LineTranscript(
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

    /// What the reader makes of `line` read by `recognizer` (with `views`), and how many views it cut.
    func check(
        _ line: TextLine, recognizer: StubRecognizer, minimum: Double = 0.5, views: [LineView]? = nil
    ) throws -> (LineTranscript, Int) {
        let stages = ReaderStages(
            locator: OneLine(line: line), rectifier: HeightRectifier(), recognizer: recognizer, minimumConfidence: minimum,
            views: views ?? self.views, turnCheck: SidewaysSecondChance(), checksPolarity: false)
        let numeric = try #require(try PeripheralCatalog.builtIn()[100])
        var reader = DisplayReader(peripheral: numeric, stages: stages)
        _ = try reader.readLines(GrayImage(width: 200, height: 100, fill: 128))
        let read = try #require(reader.trace.entries.first?.read)
        // Less the located line's own rectification.
        return (read, try #require(reader.stages.rectifier as? HeightRectifier).calls - 1)
    }

    /// The geometric mean of the reading's confidence in the located crop and in each view.
    func mean(_ values: Double...) -> Double {
        exp(values.map { log($0) }.reduce(0, +) / Double(values.count))
    }

    @Test func aReadingThatStaysIsAsSureAsItsViewsTogether() throws {
        // Located 40 px: line 1, characters 0.9; views 45 px (0.9), 36 px (0.7, the least sure) and 40 px (0.9).
        let (read, calls) = try check(line(), recognizer: StubRecognizer(confidence: { $0 < 40 ? 0.7 : 0.9 }))
        #expect(calls == 3)
        #expect(String(read.characters.map(\.character)) == "12")
        #expect(abs(read.lineConfidence - mean(1, 0.9, 0.7, 0.9)) < 1e-12)
        #expect(abs(read.confidence - mean(1, 0.9, 0.7, 0.9)) < 1e-12)
        // The doubt is the line's: each character keeps its own confidence, so it is still told to be a digit.
        #expect(read.characters.allSatisfy { $0.confidence == 0.9 })
        #expect(!read.viewsDisagree)
    }

    @Test func aViewLessSureOfTheWholeLineLowersTheReading() throws {
        // Every character at 0.9 in every view, but the taller view (45 px) is sure of its path at 0.4 only.
        let (read, _) = try check(line(), recognizer: StubRecognizer(lineConfidence: { $0 > 42 ? 0.4 : 0.8 }))
        #expect(abs(read.lineConfidence - mean(0.8, 0.4, 0.8, 0.8)) < 1e-12)
        #expect(!read.viewsDisagree)
    }

    @Test func aReadingThatChangesInOneViewIsNotSureAtAll() throws {
        // The taller view (45 px) reads 13: the text it was sure of alone has no probability there.
        let (read, _) = try check(line(), recognizer: StubRecognizer(misreadAbove: 42))
        #expect(String(read.characters.map(\.character)) == "12")
        #expect(read.characters.allSatisfy { $0.confidence == 0 })
        #expect(read.confidence == 0)
        #expect(read.viewsDisagree)
    }

    @Test func aReadingUnsureAloneIsGivenWhenItsViewsAreSure() throws {
        // Located crop sure of its path at 0.4 only, the three views at 0.9: together above the threshold.
        let (read, calls) = try check(
            line(), recognizer: StubRecognizer(lineConfidence: { $0 == 40 ? 0.4 : 0.9 }), minimum: 0.5)
        #expect(calls == 3)
        // The shifted view is 40 px too: 0.4 there as well.
        #expect(abs(read.confidence - mean(0.4, 0.9, 0.9, 0.4)) < 1e-12)
        #expect(read.confidence >= 0.5)
        // Unsure alone and with its views: its characters keep their confidences; not reported as in doubt.
        let (unsure, _) = try check(line(), recognizer: StubRecognizer(misreadAbove: 42, lineConfidence: { _ in 0.3 }))
        #expect(unsure.confidence < 0.5)
        #expect(unsure.characters.allSatisfy { $0.confidence == 0.9 })
        #expect(!unsure.viewsDisagree)
    }

    @Test func aViewMayLoseTheDecimalPointButNotShowOneTheTextLacks() throws {
        // The located crop (40 px) and the moved view (40 px) read 1.2, the taller and shorter views 12.
        let (read, _) = try check(line(), recognizer: StubRecognizer(text: { $0 == 40 ? "1.2" : "12" }))
        #expect(String(read.characters.map(\.character)) == "1.2")
        #expect(!read.viewsDisagree)
        #expect(abs(read.lineConfidence - mean(1, 0.9, 0.9, 0.9)) < 1e-12)
        // The located crop missed a point the other views see: 12 there, 1.2 in the taller and shorter views.
        let (missed, _) = try check(line(), recognizer: StubRecognizer(text: { $0 == 40 ? "12" : "1.2" }))
        #expect(missed.viewsDisagree)
        #expect(missed.confidence == 0)
        // A view that reads another digit still disagrees.
        let (other, _) = try check(line(), recognizer: StubRecognizer(text: { $0 == 40 ? "1.2" : "1.3" }))
        #expect(other.viewsDisagree)
        #expect(other.confidence == 0)
    }

    @Test func theViewsLeftAreNotReadOnceTheReadingCannotBeSure() throws {
        // The taller view (45 px, read first) reads 13: whatever the other two say, 12 cannot be sure.
        let (misread, misreadCalls) = try check(line(), recognizer: StubRecognizer(misreadAbove: 42))
        #expect(misreadCalls == 1)
        #expect(misread.viewsDisagree)
        #expect(misread.confidence == 0)
        // Sure of its path at 0.01 only there: even at 1 in the two views left, the mean is below 0.5.
        let (doubted, doubtedCalls) = try check(line(), recognizer: StubRecognizer(lineConfidence: { $0 > 42 ? 0.01 : 0.9 }))
        #expect(doubtedCalls == 1)
        #expect(abs(doubted.lineConfidence - mean(0.9, 0.01)) < 1e-12, "the mean of the views read")
        #expect(doubted.viewsDisagree)
        // At 0.3 there, the views left could still make it sure (0.9 x 0.3 x 1 x 1): all are read.
        let (read, calls) = try check(line(), recognizer: StubRecognizer(lineConfidence: { $0 > 42 ? 0.3 : 0.9 }))
        #expect(calls == 3)
        #expect(abs(read.lineConfidence - mean(0.9, 0.3, 0.9, 0.9)) < 1e-12)
    }

    @Test func aReadingWithACharacterUnsureIsNotReadInItsViews() throws {
        // Every character at 0.3, below 0.5: the views judge the line as a whole, and cannot make it sure.
        let (read, calls) = try check(line(), recognizer: StubRecognizer(confidence: { _ in 0.3 }))
        #expect(calls == 0)
        #expect(read.lineConfidence == 1)
        #expect(read.characters.allSatisfy { $0.confidence == 0.3 })
        #expect(!read.viewsDisagree)
    }

    @Test func clocksAreNotReadAgain() throws {
        let (clock, clockCalls) = try check(line(role: .auxiliary), recognizer: StubRecognizer(misreadAbove: 42))
        #expect(clockCalls == 0)
        #expect(clock.characters.allSatisfy { $0.confidence == 0.9 })
        #expect(clock.lineConfidence == 1)
    }

    @Test func noViewsNoCheck() throws {
        let (read, calls) = try check(line(), recognizer: StubRecognizer(misreadAbove: 50), views: [])
        #expect(calls == 0)
        #expect(read.characters.allSatisfy { $0.confidence == 0.9 })
        #expect(read.lineConfidence == 1)
    }

    @Test func aViewMovesTheLineAcrossItselfAndScalesIt() throws {
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
