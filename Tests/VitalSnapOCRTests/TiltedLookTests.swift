import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A photo of a measuring device that the trained stages still refuse after their other looks is read again
/// tilted (`ReaderStages.tiltedLooks`): a display turned on the table or held askew, whose rows the detector
/// finds less well than an upright one's.
struct TiltedLookTests {
    /// The trained stages, with or without their tilted looks; no second recognizer, detector or rules (their
    /// own tests), the closer look kept (asked before the tilted ones).
    func reader(peripheral id: Int = 2, tilted: Bool, asks: Bool = true) throws -> DisplayReader {
        var models = try ReaderModels.bundled()
        models.secondDetector = nil
        models.secondRecognizer = nil
        models.secondOpinion = .none
        var stages = ReaderStages.model(models)
        #expect(stages.tiltedLooks == ReaderStages.tiltedLookAngles)
        if !tilted { stages.tiltedLooks = [] }
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
        var upright = try reader(tilted: false)
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

    @Test func aCameraFrameAndANumericDisplayAreNotReadTilted() throws {
        let image = try askew()
        var live = try reader(tilted: true, asks: false)
        #expect(try live.read(image: image).reading?.readingString == nil, "a camera's frames are read once")
        var numeric = try reader(peripheral: 100, tilted: true)
        let result = try numeric.read(image: image)
        #expect(!result.warnings.contains { $0.hasPrefix("read tilted by") } && result.readTilt == 0)
    }
}
