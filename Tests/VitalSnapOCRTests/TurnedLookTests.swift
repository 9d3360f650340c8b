import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR
import VitalSnapSamples

/// A photo of a measuring device that the trained stages still refuse after their tilted looks is read once more
/// upside down, then turned a quarter either way (`ReaderStages.turnedLooks`): the detector reads the rows of a
/// display held upside down the wrong way up more often than it should, symmetric digits and all, and the
/// orienter misjudges some sideways photos.
struct TurnedLookTests {
    /// The trained stages, with or without the turned looks; no second recognizer, detector or rules (their own
    /// tests), the closer and tilted looks kept (asked before them).
    func reader(peripheral id: Int = 2, turned: Bool, turnedLooks: [Double]? = nil) throws -> DisplayReader {
        var models = try ReaderModels.bundled()
        models.secondDetector = nil
        models.secondRecognizer = nil
        models.secondOpinion = .none
        var stages = ReaderStages.model(models)
        #expect(stages.turnedLooks == ReaderStages.turnedLookAngles)
        if !turned { stages.turnedLooks = [] }
        if let turnedLooks { stages.turnedLooks = turnedLooks }
        let peripheral = try #require(try PeripheralCatalog.builtIn()[id])
        return DisplayReader(peripheral: peripheral, stages: stages)
    }

    /// Scene `index` of a generated family (as `vitalsnap samples training-set --family` writes it), decoded.
    func scene(_ family: TrainingFamily, seed: UInt64, index: Int) throws -> GrayImage {
        let scene = TrainingSceneRenderer.render(seed: seed, index: index, parameters: family.parameters())
        let jpeg = try ImageEncoder.jpeg(rgb: scene.rgb, width: scene.width, height: scene.height, quality: scene.jpegQuality)
        return try ImageDecoder.decode(bytes: jpeg, options: DisplayReader.Configuration().decoding).image
    }

    /// Scene 72 of the BP LCD family at validation seed 900001: a monitor showing 112/92/65, photographed upside
    /// down, whose 112 the other looks read as 211.
    @Test func aDisplayUpsideDownIsReadTurnedAndSaysSo() throws {
        let image = try scene(.bloodPressureLCD, seed: 900_001, index: 72)
        var without = try reader(turned: false)
        let refused = try without.read(image: image)
        #expect(refused.reading?.readingString == nil, "without the half turn: \(refused.reading?.readingString ?? "")")
        let reason = try #require(refused.message)

        var turning = try reader(turned: true)
        let result = try turning.read(image: image)
        #expect(result.reading?.readingString == "112/92/65")
        let warning = try #require(result.warnings.first { $0.hasPrefix("read upside down") })
        #expect(warning.contains(reason), "the warning gives the first reading's reason: \(warning)")
        #expect(result.readTilt == Double.pi)
    }

    /// Scene 165 of the BP LCD family at validation seed 900002: a monitor showing 139/65/40 upside down, which
    /// read turned gives the word `Lo` (its pulse row's `40`). A word is not taken from a turned look.
    @Test func aWordReadUpsideDownIsNotTaken() throws {
        let image = try scene(.bloodPressureLCD, seed: 900_002, index: 165)
        var turning = try reader(turned: true)
        let result = try turning.read(image: image)
        #expect(result.reading?.word == nil, "read \(result.reading?.word ?? "")")
        #expect(!result.warnings.contains { $0.hasPrefix("read upside down") }, "\(result.warnings)")
        // A turn between the half and quarter turns may read its values, and only them.
        if result.warnings.contains(where: { $0.hasPrefix("read turned by") }) {
            #expect(result.reading?.readingString == "139/65/40", "\(result.warnings)")
        }
    }

    /// Scene 37 of the colour BP monitor family at seed 900001: a monitor showing 230/65/88, photographed
    /// sideways, whose systolic and diastolic rows the other looks miss.
    @Test func aDisplaySidewaysIsReadTurnedAQuarterAndSaysSo() throws {
        let image = try scene(.bloodPressureColor, seed: 900_001, index: 37)
        var without = try reader(turned: false)
        #expect(try without.read(image: image).reading?.readingString == nil)
        var turning = try reader(turned: true)
        let result = try turning.read(image: image)
        #expect(result.reading?.readingString == "230/65/88")
        let warning = try #require(result.warnings.first { $0.hasPrefix("read turned by") })
        #expect(abs(abs(result.readTilt) - Double.pi / 2) < 1e-9)
        let degrees = Int((result.readTilt * 180 / Double.pi).rounded())
        #expect(warning.hasPrefix("read turned by \(degrees) degrees"))
    }

    /// Scene 42 of the colour BP monitor family at seed 900001: a dot-matrix monitor showing 73/43/112, lying
    /// turned about 150 degrees, which the half and quarter turns leave 30 to 60 degrees askew and the tilted looks
    /// (up to 45 degrees either side of upright) do not reach: one of the turns between them reads it.
    @Test func aDisplayTurnedBetweenTheHalfAndQuarterTurnsIsReadAtATurnBetweenAndSaysSo() throws {
        let image = try scene(.bloodPressureColor, seed: 900_001, index: 42)
        let halfAndQuarters = [180.0, 90, -90].map { $0 * Double.pi / 180 }
        #expect(Array(ReaderStages.turnedLookAngles.prefix(3)) == halfAndQuarters)
        var quarters = try reader(turned: true, turnedLooks: halfAndQuarters)
        #expect(try quarters.read(image: image).reading?.readingString == nil)
        var turning = try reader(turned: true)
        let result = try turning.read(image: image)
        #expect(result.reading?.readingString == "73/43/112")
        #expect(!halfAndQuarters.contains(result.readTilt) && ReaderStages.turnedLookAngles.contains(result.readTilt))
        let degrees = Int((result.readTilt * 180 / Double.pi).rounded())
        #expect(result.warnings.contains { $0.hasPrefix("read turned by \(degrees) degrees") }, "\(result.warnings)")
    }

    /// Scene 123 of the thermometer family at validation seed 900002: 36.9 °C photographed upside down, read as
    /// it stands `69E` (a `3` turned over is an `E`). An `E` seen stops every later look, for an error screen
    /// reads as a value turned (`E2` is `23`); one that follows a digit is no error code, and the turned looks
    /// still read the photo.
    @Test func digitsReadAsAnEAfterADigitAreReadTurned() throws {
        let image = try scene(.thermometer, seed: 900_002, index: 123)
        var turning = try reader(peripheral: 1, turned: true)
        let result = try turning.read(image: image)
        #expect(result.reading?.readingString == "36.9")
        let warning = try #require(result.warnings.first { $0.hasPrefix("read upside down") })
        #expect(warning.contains("69E"), "the first reading's reason: \(warning)")
    }

    @Test func anEAfterADigitReadsAsDigitsTurnedOverAndAnErrorCodeDoesNot() {
        #expect(ReaderStages.mayReadTurnedDigits(after: refused(showing: "140\n69E")))
        #expect(ReaderStages.mayReadTurnedDigits(after: refused(showing: "1EE")))
        #expect(ReaderStages.mayReadTurnedDigits(after: refused(showing: "5E.I\n88")))
        #expect(!ReaderStages.mayReadTurnedDigits(after: refused(showing: "E22")), "an error code as it stands")
        #expect(!ReaderStages.mayReadTurnedDigits(after: refused(showing: "Err")))
        #expect(!ReaderStages.mayReadTurnedDigits(after: refused(showing: "88\nE-3")))
        #expect(!ReaderStages.mayReadTurnedDigits(after: refused(showing: "-E")), "an E after a dash")
        #expect(!ReaderStages.mayReadTurnedDigits(after: refused(showing: "69E\n12:30")), "a clock shows which way up")
        #expect(!ReaderStages.mayReadTurnedDigits(after: refused(showing: "36.9")), "no E: the looks are asked anyway")
    }

    func refused(showing text: String) -> PhotoResult {
        PhotoResult(
            file: "", reading: Reading(outcome: .none(.noDigitsFound), confidence: 0, recognizedText: text, lines: []))
    }

    @Test func aClockOrADateReadAsItStandsKeepsThePhotoTheWayUpItIs() {
        #expect(!ReaderStages.mayReadTurned(after: refused(showing: "24-06\n15:02")))
        #expect(!ReaderStages.mayReadTurned(after: refused(showing: "88\n7:45")))
        #expect(ReaderStages.mayReadTurned(after: refused(showing: "65\n211")))
        #expect(ReaderStages.mayReadTurned(after: refused(showing: "-19-\n90-.I")), "no digits on both sides")
        #expect(ReaderStages.mayReadTurned(after: refused(showing: "")))
    }
}
