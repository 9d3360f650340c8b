import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// The trained reader's second chances: a photo of a measuring device it refuses is read from the lines of its
/// second detector, then by the rules; a value either gives is taken with a warning that says so. Not for a
/// plain numeric display, not for live frames, not when the models are measured alone.
struct SecondOpinionTests {
    static let warning = "read by the rule-based reader"
    static let secondDetectorWarning = "read from the second detector's lines"
    static let closerWarning = "read from a closer look"

    /// A sample still of the mg/dL meter showing 122, which the trained stages refuse and the rules read.
    func still() throws -> GrayImage {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/glucose-g1/glucose-g1-10.jpg").path
        return try ImageDecoder.decode(contentsOf: path).image
    }

    func reader(
        peripheral id: Int = 101, secondOpinion: ReaderStages.SecondOpinion = .rules, secondDetector: Bool = false,
        closerLook: Bool = false, asks: Bool = true
    ) throws -> DisplayReader {
        var models = try ReaderModels.bundled()
        #expect(models.secondDetector != nil, "the bundled models have a second detector")
        if !secondDetector { models.secondDetector = nil }
        models.secondRecognizer = nil  // asked before these, for unclear digits only: SecondRecognizerTests
        models.secondOpinion = secondOpinion
        var stages = ReaderStages.model(models)
        #expect(stages.closerLocator != nil, "the bundled models have a photo detector to look closer with")
        if !closerLook { stages.closerLocator = nil }
        stages.tiltedLooks = []  // TiltedLookTests
        stages.turnedLooks = []  // TurnedLookTests
        var configuration = DisplayReader.Configuration()
        configuration.asksSecondOpinion = asks
        let peripheral = try #require(try PeripheralCatalog.builtIn()[id])
        return DisplayReader(peripheral: peripheral, stages: stages, configuration: configuration)
    }

    /// A sample still, `Samples/stills/FOLDER/NAME.jpg`.
    func sample(_ folder: String, _ name: String) throws -> GrayImage {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/\(folder)/\(name).jpg").path
        return try ImageDecoder.decode(contentsOf: path).image
    }

    @Test func aPhotoTheModelsRefuseIsReadByTheRulesAndSaysSo() throws {
        var alone = try reader(secondOpinion: .none)
        let refused = try alone.read(image: try still())
        #expect(refused.reading?.readingString == nil, "the trained stages alone refuse this still")
        let reason = try #require(refused.message)

        var withSecond = try reader()
        let result = try withSecond.read(image: try still())
        #expect(result.reading?.readingString == "122")
        let warning = try #require(result.warnings.first { $0.hasPrefix(Self.warning) })
        #expect(warning.contains(reason), "the warning gives the trained reader's reason: \(warning)")
    }

    /// A still of the mg/dL meter showing 95 (glucose-g1-07): the lines of the first detector give no sure
    /// reading and the rules none, the second detector's lines give 95.
    @Test func aPhotoTheFirstDetectorsLinesFailIsReadFromTheSecondsAndSaysSo() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/glucose-g1/glucose-g1-07.jpg").path
        let image = try ImageDecoder.decode(contentsOf: path).image
        var first = try reader()
        let refused = try first.read(image: image)
        #expect(refused.reading?.readingString == nil, "the first detector's lines and the rules give nothing")
        let reason = try #require(refused.message)

        var both = try reader(secondDetector: true)
        let result = try both.read(image: image)
        #expect(result.reading?.readingString == "95")
        let warning = try #require(result.warnings.first { $0.hasPrefix(Self.secondDetectorWarning) })
        #expect(warning.contains(reason), "the warning gives the first reading's reason: \(warning)")

        var live = try reader(secondDetector: true, asks: false)
        #expect(try live.read(image: image).reading?.readingString == nil, "a camera's frames are read once")
        var numeric = try reader(peripheral: 100, secondDetector: true)
        #expect(!(try numeric.read(image: image)).warnings.contains { $0.hasPrefix(Self.secondDetectorWarning) },
                "a numeric display's readings have no ranges to check them by")
    }

    /// A still of the BP monitor (bp-b3-15, upside down, the display 29% of the frame): neither detector finds
    /// its three rows at their trained size, and the rules read nothing; the photo detector looking closer
    /// finds them.
    @Test func aPhotoWhoseRowsTheDetectorsMissIsReadFromACloserLookAndSaysSo() throws {
        let image = try sample("bp-b3", "bp-b3-15")
        var without = try reader(peripheral: 103, secondDetector: true)
        let refused = try without.read(image: image)
        #expect(refused.reading?.readingString == nil, "without the closer look: \(refused.message ?? "")")
        let reason = try #require(refused.message)

        var closer = try reader(peripheral: 103, secondDetector: true, closerLook: true)
        let result = try closer.read(image: image)
        #expect(result.reading?.readingString == "215/112/57")
        let warning = try #require(result.warnings.first { $0.hasPrefix(Self.closerWarning) })
        #expect(warning.contains(reason), "the warning gives the first reading's reason: \(warning)")

        var live = try reader(peripheral: 103, closerLook: true, asks: false)
        #expect(try live.read(image: image).reading?.readingString == nil, "a camera's frames are read once")
    }

    /// A real photo (third-party, in ../shared, not in the repository) of a glucose meter showing 103, a glint
    /// on the glass beside the 1: the first look refuses it over glare; looked at closer, it read 403.
    static let glarePhoto = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/data/photos/glucose-morepen/IMG_8972.jpg").standardized.path

    /// A photo refused over glare is not looked at closer: the same glare lies over the digits.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: glarePhoto), "../shared/data/photos is absent (third-party photos)"))
    func aPhotoRefusedOverGlareIsNotLookedAtCloser() throws {
        var reader = try reader(peripheral: 9, secondDetector: true, closerLook: true)
        let result = reader.read(file: Self.glarePhoto)
        #expect(result.reading?.readingString == nil, "\(result.warnings)")
        #expect(result.reading?.refusal?.reason == .glare, "\(result.message ?? "")")
        #expect(!result.warnings.contains { $0.hasPrefix(Self.closerWarning) })
    }

    @Test func noSecondOpinionWhereItIsOff() throws {
        var live = try reader(asks: false)
        #expect(try live.read(image: try still()).reading?.readingString == nil, "a camera's frames are read once")
        var numeric = try reader(peripheral: 100)
        let result = try numeric.read(image: try still())
        #expect(!result.warnings.contains { $0.hasPrefix(Self.warning) }, "a numeric display has no ranges to check the rules by")
    }

    @Test func aPhotoTheModelsReadIsNotAskedAgain() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/glucose-g1/glucose-g1-01.jpg").path
        var reader = try reader()
        let result = try reader.read(image: try ImageDecoder.decode(contentsOf: path).image)
        #expect(result.reading?.readingString == "227")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func whenTheRulesGiveNothingTooTheTrainedReadersReasonStands() throws {
        var reader = try reader()
        let blank = GrayImage(width: 320, height: 240, fill: 128)
        let result = try reader.read(image: blank)
        #expect(result.reading?.readingString == nil)
        #expect(result.message != nil)
        #expect(!result.warnings.contains { $0.hasPrefix(Self.warning) })
    }

    /// A display the trained stages saw an error code on goes to no second opinion: upside down, the rules read
    /// `E2` as `23`.
    @Test func anErrorCodeTheModelsSawIsNotReadAgain() {
        func refused(_ seen: String) -> PhotoResult {
            PhotoResult(file: "x.jpg", reading: Reading(outcome: .none(Refusal(.valuesMissing, "refused")), confidence: 0, recognizedText: seen, lines: []))
        }
        #expect(!ReaderStages.SecondOpinion.rules.asks(after: refused("E2")))
        #expect(!ReaderStages.SecondOpinion.rules.asks(after: refused("09:49\n1E9")))
        #expect(ReaderStages.SecondOpinion.rules.asks(after: refused("")))
        #expect(ReaderStages.SecondOpinion.rules.asks(after: refused("118\n78")))
        #expect(!ReaderStages.SecondOpinion.none.asks(after: refused("")))
        #expect(!ReaderStages.SecondOpinion.mayAsk(after: refused("E2")), "nor from the second detector's lines")
        #expect(ReaderStages.SecondOpinion.mayAsk(after: refused("118\n78")))
    }
}
