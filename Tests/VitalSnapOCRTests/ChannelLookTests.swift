import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A colour photo that the stages refuse after every look is decoded again with each pixel's brightest channel
/// as its grey, then its darkest, and read once more (`ReaderStages.channelLooks`): blue digits that luma makes a
/// dim grey, yellow ones that it makes a light grey. Checked through the reader itself on real colour JPEGs,
/// with stand-in stages: one line (`ViewAgreementTests.OneLine`) read by a recognizer that sees digits only
/// where the crop's grey is in a given range.
struct ChannelLookTests {
    /// Reads `text` sure where the middle of the crop has a median grey in `seen`; nothing elsewhere. Where
    /// `otherSeen` holds instead, reads `otherText`.
    struct SeesDigits: CharacterRecognizer {
        var seen: ClosedRange<Int>
        var text = "120"
        var otherSeen: ClosedRange<Int>? = nil
        var otherText = "130"

        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let image = line.image
            let middle = PixelRect(x: image.width / 4, y: image.height / 3, width: image.width / 2, height: image.height / 3)
            let grey = Int(Histogram(image, in: middle).percentile(0.5))
            let read = seen.contains(grey) ? text : otherSeen?.contains(grey) == true ? otherText : ""
            let characters = read.enumerated().map { k, c in
                RecognizedCharacter(character: c, confidence: 0.95, segments: [], box: PixelRect(x: 8 + 14 * k, y: 6, width: 12, height: 20))
            }
            var transcript = LineTranscript(characters: characters, contrast: characters.isEmpty ? 0 : 100, hasGap: false)
            transcript.lineConfidence = 0.9
            return transcript
        }
    }

    /// Where the stand-in sees bright digits (a lit screen's) and where dark ones (ink on a light screen).
    static let bright = 100...255, dark = 0...60

    func reader(
        channels: [DecodeOptions.Grey] = ReaderStages.channelLookGreys, sees seen: ClosedRange<Int> = bright,
        elseSees otherSeen: ClosedRange<Int>? = nil, peripheral: Int = 9, photo: Bool = true
    ) throws -> DisplayReader {
        let line = TextLine(candidates: [], polarity: .dark, centerX: 100, centerY: 50, angle: 0, length: 120,
                            digitHeight: 40, candidatesAreCharacters: false, role: .value)
        let stages = ReaderStages(
            locator: ViewAgreementTests.OneLine(line: line), rectifier: ModelLineRectifier(),
            recognizer: SeesDigits(seen: seen, otherSeen: otherSeen), minimumConfidence: 0.5, turnCheck: SidewaysSecondChance(),
            checksPolarity: false, channelLooks: channels)
        return try DisplayReader.standIn(stages: stages, peripheral: peripheral, photo: photo)
    }

    /// A 400x200 JPEG (read at its own size: `WorkingFrame` enlarges smaller photos) of one colour all over, or
    /// of `colour` with a block of `middle` over the line's digit band (x 40-160, y 30-70), in a temporary file
    /// removed by `body`'s end.
    func withPhoto(_ colour: (UInt8, UInt8, UInt8), middle: (UInt8, UInt8, UInt8)? = nil, _ body: (String) throws -> Void) throws {
        let width = 400, height = 200
        var rgb = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let c = middle.map { (40..<160).contains(x) && (30..<70).contains(y) ? $0 : colour } ?? colour
                rgb += [c.0, c.1, c.2]
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("channel-\(UUID().uuidString).jpg").path
        try ImageEncoder.write(ImageEncoder.jpeg(rgb: rgb, width: width, height: height, quality: 95), to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    let blue: (UInt8, UInt8, UInt8) = (0, 0, 220)

    @Test func aBluePhotoRefusedInItsLumaIsReadInItsBrightestChannel() throws {
        try withPhoto(blue) { path in
            var plain = try reader(channels: [])
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

    let yellow: (UInt8, UInt8, UInt8) = (235, 220, 0), palePink: (UInt8, UInt8, UInt8) = (250, 205, 215)

    @Test func yellowDigitsOnAPaleScreenRefusedInLumaAndTheBrightestChannelAreReadInTheDarkest() throws {
        try withPhoto(palePink, middle: yellow) { path in
            var brightOnly = try reader(channels: [.brightestChannel], sees: Self.dark)
            let refused = brightOnly.read(file: path)
            #expect(refused.reading?.readingString == nil, "luma makes the yellow a grey of about 200, its brightest channel 235")
            let reason = try #require(refused.message)

            var both = try reader(sees: Self.dark)
            let result = both.read(file: path)
            #expect(result.reading?.readingString == "120")
            let warning = try #require(result.warnings.first { $0.hasPrefix("read in its darkest colour channel") })
            #expect(warning.contains(reason), "the warning gives the first reading's reason: \(warning)")
            #expect(!result.warnings.contains { $0.hasPrefix("read in its brightest colour channel") })
        }
    }

    @Test func theChannelsAreAskedInTheirOrder() throws {
        // Green digits on grey: luma about 117 reads nothing; its brightest channel (200) reads `120`, its
        // darkest (0, dark ink on the grey) `130`.
        try withPhoto((120, 120, 120), middle: (0, 200, 0)) { path in
            var brightFirst = try reader(sees: 180...255, elseSees: Self.dark)
            let first = brightFirst.read(file: path)
            #expect(first.reading?.readingString == "120")
            #expect(first.warnings.contains { $0.hasPrefix("read in its brightest colour channel") })
            var darkFirst = try reader(channels: [.darkestChannel, .brightestChannel], sees: 180...255, elseSees: Self.dark)
            let second = darkFirst.read(file: path)
            #expect(second.reading?.readingString == "130")
            #expect(second.warnings.contains { $0.hasPrefix("read in its darkest colour channel") })
        }
    }

    @Test func aPhotoReadInItsLumaIsNotReadAgain() throws {
        // A light orange reads in luma already (a grey of about 200; 230 in its brightest channel, which would
        // read too): nothing more to look at, no warning.
        try withPhoto((230, 200, 120)) { path in
            var bright = try reader()
            let result = bright.read(file: path)
            #expect(result.reading?.readingString == "120")
            #expect(!result.warnings.contains { $0.hasPrefix("read in its") })
        }
    }

    /// In the darkest channel a reading is not taken where a line is surely light ink: a light digit there has
    /// less contrast than luma gave it.
    @Test func theDarkestChannelTakesNoLineSurelyLight() {
        let read = TurnedErrorCodeCheckTests().result("120")
        var refused = read
        refused.reading?.refuse(Refusal(.unclearDigits, "the digits of bloodGlucose are unclear (120)"))
        #expect(read.reading?.lines.first?.polarity == .dark)
        #expect(ChannelLook.takes(read, refused: refused, in: .darkestChannel))
        #expect(ChannelLook.takes(read, refused: refused, in: .brightestChannel))
        var light = read
        light.reading?.lines[0].polarity = .light
        #expect(!ChannelLook.takes(light, refused: refused, in: .darkestChannel))
        #expect(ChannelLook.takes(light, refused: refused, in: .brightestChannel), "light ink is what the brightest channel is for")
        light.reading?.lines[0].polarityIsSure = false
        #expect(ChannelLook.takes(light, refused: refused, in: .darkestChannel), "a polarity in doubt is no light ink")
    }

    /// A photo refused with a value doubted as an error code upside down (`63` for `E9`) may show no value at
    /// all: no channel look is asked, where the same photo refused as unclear is.
    @Test func aPhotoWhoseValueMayBeATurnedErrorCodeIsNotReadInItsChannels() {
        let photos = TurnedErrorCodeCheckTests()
        let doubted = TurnedErrorCodeCheck().check(photos.result("63"), probabilities: photos.probabilities(halfTurn: 0.3))
        #expect(doubted.reading?.refusal?.mayBeTurnedErrorCode == "63")
        #expect(!ChannelLook.mayAsk(after: doubted))
        var unclear = doubted
        unclear.reading?.refuse(Refusal(.unclearDigits, "the digits of bloodGlucose are unclear (63)"))
        #expect(ChannelLook.mayAsk(after: unclear))
    }

    @Test func aCameraFrameAndANumericDisplayAreNotReadInTheirChannels() throws {
        try withPhoto(blue) { path in
            var live = try reader(photo: false)
            #expect(live.read(file: path).reading?.readingString == nil, "a camera's frames are read once")
            var numeric = try reader(peripheral: 100)
            let result = numeric.read(file: path)
            #expect(result.reading?.readingString == nil)
            #expect(!result.warnings.contains { $0.hasPrefix("read in its") })
        }
        try withPhoto(palePink, middle: yellow) { path in
            var live = try reader(sees: Self.dark, photo: false)
            #expect(live.read(file: path).reading?.readingString == nil, "a camera's frames are read once")
        }
    }
}
