import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// The order of the reader's chain, watched through its stages: the orienter is shown the lines the locator
/// found, and a photo is located again and read only when the orienter turns it; the lines of the upright
/// photo are not read first and thrown away.
struct ReaderChainTests {
    /// Counts what passes through the stages it wraps. A class, so that the copies the reader keeps count too.
    final class Counts: @unchecked Sendable {
        var located = 0
        var recognized = 0
        var linesShownToOrienter: [[TextLine]] = []
        var linesLocated: [[TextLine]] = []
    }

    struct CountingLocator: LineLocator {
        var inner: any LineLocator
        let counts: Counts
        mutating func locate(in frame: WorkingFrame) throws(ReaderStageError) -> [TextLine] {
            counts.located += 1
            let lines = try inner.locate(in: frame)
            counts.linesLocated.append(lines)
            return lines
        }
    }

    struct CountingRecognizer: CharacterRecognizer {
        var inner: any CharacterRecognizer
        let counts: Counts
        mutating func recognize(_ line: RectifiedLine) throws(ReaderStageError) -> LineTranscript {
            counts.recognized += 1
            return try inner.recognize(line)
        }
        mutating func probability(of read: LineTranscript, in line: RectifiedLine, pointsMayDrop: Bool) throws(ReaderStageError) -> Double {
            try inner.probability(of: read, in: line, pointsMayDrop: pointsMayDrop)
        }
    }

    /// Says the photo is turned by `turns` quarter turns (nil: it cannot tell), and keeps the lines it was shown.
    struct Told: PhotoOrienter {
        var turns: Int?
        let counts: Counts
        mutating func orientation(of image: GrayImage, lines: [TextLine]) -> OrientationEstimate? {
            counts.linesShownToOrienter.append(lines)
            return turns.map { OrientationEstimate(clockwiseTurns: $0, confidence: 1) }
        }
    }

    func reader(turns: Int?) throws -> (DisplayReader, Counts) {
        let counts = Counts()
        var stages = ReaderStages.model(try ReaderModels.bundled())
        // The locator a photo of this blood pressure monitor is read with (`PhotoLocatorTests`), counted.
        stages.locator = CountingLocator(inner: stages.photoLocator ?? stages.locator, counts: counts)
        stages.photoLocator = nil
        stages.recognizer = CountingRecognizer(inner: stages.recognizer, counts: counts)
        stages.orienter = Told(turns: turns, counts: counts)
        let bp = try #require(try PeripheralCatalog.builtIn()[2])
        return (DisplayReader(peripheral: bp, stages: stages), counts)
    }

    func photo() throws -> GrayImage {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/bp-b3/bp-b3-01.jpg").path
        return try ImageDecoder.decode(contentsOf: path).image
    }

    @Test func theOrienterIsShownTheLinesFoundAndAnUprightPhotoIsReadOnce() throws {
        var (reader, counts) = try reader(turns: nil)
        let result = try reader.read(image: try photo())
        #expect(result.reading?.readingString != nil, "\(result.message ?? "")")
        #expect(counts.located == 1)
        #expect(counts.linesShownToOrienter.count == 1)
        #expect(counts.linesShownToOrienter.first == counts.linesLocated.first)
        #expect(counts.linesLocated.first?.isEmpty == false)
        #expect(counts.recognized > 0)
    }

    @Test func aTurnedPhotoIsLocatedAgainTurnedBackAndReadOnlyThatWay() throws {
        let (upright, uprightCounts) = try reader(turns: nil)
        var reading = upright
        let asItStands = try reading.read(image: try photo())
        let (turned, turnedCounts) = try reader(turns: 2)
        var turning = turned
        let stoodUp = try turning.read(image: try photo().rotated180())
        #expect(stoodUp.reading?.readingString == asItStands.reading?.readingString)
        #expect(stoodUp.readOrientation == .down)
        // Located twice (as it is, for the orienter; then turned back), its lines read once: as many lines
        // recognized as for the upright photo itself, none of the photo as it was given.
        #expect(turnedCounts.located == 2)
        #expect(turnedCounts.linesShownToOrienter.count == 1)
        #expect(turnedCounts.recognized == uprightCounts.recognized)
        #expect(turnedCounts.linesLocated.last == uprightCounts.linesLocated.first)
    }
}

/// The library's default reader is the one every command uses: the trained one.
struct DefaultReaderTests {
    @Test func theLibrarysDefaultIsTheCommandsDefault() throws {
        #expect(ReaderChoice.preferredKind == .model)
        let bp = try #require(try PeripheralCatalog.builtIn()[2])
        let reader = try DisplayReader(peripheral: bp)
        #expect(reader.stages.locator is ModelLineLocator)
        #expect(reader.stages.recognizer is ModelCharacterRecognizer)
        #expect(try ReaderChoice.preferred().kind == .model)
    }
}
