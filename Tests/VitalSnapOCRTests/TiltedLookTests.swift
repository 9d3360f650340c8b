import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A photo of a measuring device that the trained stages still refuse after their other looks is read again
/// tilted (`ReaderStages.tiltedLooks`): a display turned on the table or held askew, whose rows the detector
/// finds less well than an upright one's. A plain numeric display has tilted looks of its own
/// (`ReaderStages.numericTiltedLooks`, after the crop read whole as one line where it is a crop of its line).
struct TiltedLookTests {
    /// The trained stages, with or without their tilted looks (and a numeric display's); no second recognizer,
    /// detector or rules (their own tests), the closer look kept (asked before the tilted ones).
    func reader(peripheral id: Int = 2, tilted: Bool, numericTilted: Bool = true, turned: Bool = true, asks: Bool = true) throws -> DisplayReader {
        var models = try ReaderModels.bundled()
        models.secondDetector = nil
        models.secondRecognizer = nil
        models.secondOpinion = .none
        var stages = ReaderStages.model(models)
        #expect(stages.tiltedLooks == ReaderStages.tiltedLookAngles)
        if !tilted { stages.tiltedLooks = [] }
        if !numericTilted { stages.numericTiltedLooks = [] }
        if !turned { stages.turnedLooks = [] }
        var configuration = DisplayReader.Configuration()
        configuration.asksSecondOpinion = asks
        let peripheral = try #require(try PeripheralCatalog.builtIn()[id])
        return DisplayReader(peripheral: peripheral, stages: stages, configuration: configuration)
    }

    /// The BP monitor still bp-b3-01 (101/63/86) turned 35 degrees counter-clockwise.
    func askew() throws -> GrayImage {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/bp-b3/bp-b3-01.jpg").path
        return try ImageDecoder.decode(contentsOf: path).image.tilted(by: -35 * Double.pi / 180)
    }

    @Test func aDisplayHeldAskewIsReadTiltedAndSaysSo() throws {
        let image = try askew()
        // Without the turned looks too: one of those (135 degrees) reads it as well.
        var upright = try reader(tilted: false, turned: false)
        let refused = try upright.read(image: image)
        #expect(refused.reading?.readingString == nil, "without the tilted looks: \(refused.reading?.readingString ?? "")")
        let reason = try #require(refused.message)

        var tilting = try reader(tilted: true)
        let result = try tilting.read(image: image)
        #expect(result.reading?.readingString == "101/63/86")
        let warning = try #require(result.warnings.first { $0.hasPrefix("read tilted by") })
        #expect(warning.contains(reason), "the warning gives the first reading's reason: \(warning)")
        #expect(result.readTilt > 0, "turned back clockwise: \(result.readTilt)")
        let degrees = Int((result.readTilt * 180 / Double.pi).rounded())
        #expect(warning.hasPrefix("read tilted by \(degrees) degrees"))
    }

    @Test func aCameraFrameIsNotReadTilted() throws {
        let image = try askew()
        var live = try reader(tilted: true, asks: false)
        #expect(try live.read(image: image).reading?.readingString == nil, "a camera's frames are read once")
    }

    /// A plain numeric display is read at its own tilts (`numericTiltedLooks`), its reading taken where two looks
    /// agree (`NumericLookTerms`): the scale still scale-s1-02 (74.0) turned 35 degrees counter-clockwise, read as
    /// peripheral 100, which the first look finds no digits in.
    @Test func aNumericDisplayHeldAskewIsReadAtItsOwnTilts() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/scale-s1/scale-s1-02.jpg").path
        let image = try ImageDecoder.decode(contentsOf: path).image.tilted(by: -35 * Double.pi / 180)
        var upright = try reader(peripheral: 100, tilted: true, numericTilted: false)
        let refused = try upright.read(image: image)
        #expect(refused.reading?.readingString == nil, "without its tilted looks: \(refused.reading?.readingString ?? "")")

        var numeric = try reader(peripheral: 100, tilted: false)
        #expect(numeric.stages.numericTiltedLooks == ReaderStages.numericTiltedLookAngles)
        let result = try numeric.read(image: image)
        #expect(result.reading?.readingString == "74.0")
        #expect(result.warnings.contains { $0.hasPrefix("read tilted by") } && result.readTilt > 0)
    }
}
