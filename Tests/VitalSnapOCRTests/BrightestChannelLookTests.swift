import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A colour photo that the stages refuse after every look is decoded again with each pixel's brightest channel
/// as its grey and read once more (`ReaderStages.readsBrightestChannel`): blue digits that luma makes a dim grey.
/// Checked through the reader itself on a real colour JPEG, with stand-in stages: one line
/// (`ViewAgreementTests.OneLine`) read by a recognizer that sees digits only where the crop is bright.
struct BrightestChannelLookTests {
    /// Reads `120` sure where the middle of the crop has a median grey of at least 100; nothing elsewhere.
    struct SeesBrightDigits: CharacterRecognizer {
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let image = line.image
            let middle = PixelRect(x: image.width / 4, y: image.height / 3, width: image.width / 2, height: image.height / 3)
            guard Histogram(image, in: middle).percentile(0.5) >= 100 else {
                return LineTranscript(characters: [], contrast: 0, hasGap: false)
            }
            let characters = "120".enumerated().map { k, c in
                RecognizedCharacter(character: c, confidence: 0.95, segments: [], box: PixelRect(x: 8 + 14 * k, y: 6, width: 12, height: 20))
            }
            var read = LineTranscript(characters: characters, contrast: 100, hasGap: false)
            read.lineConfidence = 0.9
            return read
        }
    }

    func reader(brightest: Bool = true, peripheral: Int = 9, photo: Bool = true) throws -> DisplayReader {
        let line = TextLine(candidates: [], polarity: .dark, centerX: 100, centerY: 50, angle: 0, length: 120,
                            digitHeight: 40, candidatesAreCharacters: false, role: .value)
        let stages = ReaderStages(
            locator: ViewAgreementTests.OneLine(line: line), rectifier: ModelLineRectifier(),
            recognizer: SeesBrightDigits(), minimumConfidence: 0.5, turnCheck: SidewaysSecondChance(),
            checksPolarity: false, readsBrightestChannel: brightest)
        return try DisplayReader.standIn(stages: stages, peripheral: peripheral, photo: photo)
    }

    /// A 200x100 JPEG of one colour all over, in a temporary file removed by `body`'s end.
    func withPhoto(_ colour: (UInt8, UInt8, UInt8), _ body: (String) throws -> Void) throws {
        var rgb = [UInt8]()
        for _ in 0..<(200 * 100) { rgb += [colour.0, colour.1, colour.2] }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("brightest-\(UUID().uuidString).jpg").path
        try ImageEncoder.write(ImageEncoder.jpeg(rgb: rgb, width: 200, height: 100, quality: 95), to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    let blue: (UInt8, UInt8, UInt8) = (0, 0, 220)

    @Test func aBluePhotoRefusedInItsLumaIsReadInItsBrightestChannel() throws {
        try withPhoto(blue) { path in
            var plain = try reader(brightest: false)
            let refused = plain.read(file: path)
            #expect(refused.reading?.readingString == nil, "luma makes the blue a grey of about 25")
            let reason = try #require(refused.message)

            var bright = try reader()
            let result = bright.read(file: path)
            #expect(result.reading?.readingString == "120")
            let warning = try #require(result.warnings.first { $0.hasPrefix("read in its brightest colour channel") })
            #expect(warning.contains(reason), "the warning gives the first reading's reason: \(warning)")
        }
    }

    @Test func aPhotoReadInItsLumaIsNotReadAgain() throws {
        // A light orange reads in luma already (a grey of about 200; 230 in its brightest channel, which would
        // read too): nothing more to look at, no warning.
        try withPhoto((230, 200, 120)) { path in
            var bright = try reader()
            let result = bright.read(file: path)
            #expect(result.reading?.readingString == "120")
            #expect(!result.warnings.contains { $0.hasPrefix("read in its brightest colour channel") })
        }
    }

    @Test func aCameraFrameAndANumericDisplayAreNotReadInTheirBrightestChannel() throws {
        try withPhoto(blue) { path in
            var live = try reader(photo: false)
            #expect(live.read(file: path).reading?.readingString == nil, "a camera's frames are read once")
            var numeric = try reader(peripheral: 100)
            let result = numeric.read(file: path)
            #expect(result.reading?.readingString == nil)
            #expect(!result.warnings.contains { $0.hasPrefix("read in its brightest colour channel") })
        }
    }
}
