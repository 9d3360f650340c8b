import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// The look before a value line's first character for a thin `1` its locator left out (`LeadingOneLook`):
/// checked with the trained reader's rectifier and a recognizer that reads a `1` only in a crop long enough to
/// hold it, alone and through the reader.
struct LeadingOneLookTests {
    /// Reads `short` in a crop up to `longerThan` columns wide and `long` in a wider one, every character at
    /// `confidence`; counts the crops it is shown.
    struct SeesTheOneInLongerCrops: CharacterRecognizer {
        var short = "11.1"
        var long = "111.1"
        var longerThan = 80
        var confidence = 0.9
        var crops = 0

        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            crops += 1
            let text = line.image.width > longerThan ? long : short
            let characters = text.enumerated().map { k, c in
                RecognizedCharacter(character: c, confidence: confidence, segments: [], box: PixelRect(x: 8 + 14 * k, y: 6, width: 12, height: 20))
            }
            var read = LineTranscript(characters: characters, contrast: 100, hasGap: false)
            read.lineConfidence = confidence
            return read
        }
    }

    /// A value line 120 px long, digits 40 px tall, centred at (100, 50): its crop is 72 columns wide, the
    /// lengthened one (0.8 digit heights, 32 px, more) 88.
    let line = TextLine(candidates: [], polarity: .dark, centerX: 100, centerY: 50, angle: 0, length: 120,
                        digitHeight: 40, candidatesAreCharacters: false, role: .value)
    let image = GrayImage(width: 200, height: 100, pixels: (0..<(200 * 100)).map { UInt8(60 + ($0 * 7919) % 120) })

    @Test func theLineIsLengthenedBeforeItsStartAlongItsReadingDirection() {
        let look = LeadingOneLook(reach: 0.8)
        let longer = look.lengthened(line)
        #expect(longer.length == 152)
        #expect(longer.centerX == 84 && longer.centerY == 50, "its end stays where it was")
        var down = line
        down.angle = Double.pi / 2  // reading down the image (a photo turned a quarter)
        let longerDown = look.lengthened(down)
        #expect(abs(longerDown.centerX - 100) < 1e-9 && abs(longerDown.centerY - 34) < 1e-9)
        #expect(LineCropper.width(length: line.length, digitHeight: 40) == 72)
        #expect(LineCropper.width(length: longer.length, digitHeight: 40) == 88)
    }

    /// The reading, as the recognizer gives it in the line's own crop.
    func read(_ recognizer: inout any CharacterRecognizer, pyramid: ImagePyramid) throws -> LineTranscript {
        var rectifier: any LineRectifying = ModelLineRectifier()
        var crop = RectifiedLine()
        rectifier.rectify(line, pyramid: pyramid, into: &crop)
        return try recognizer.recognize(crop)
    }

    @Test func aOneReadBeforeTheTextInTheLongerCropRaisesItsProbability() throws {
        var pyramid = ImagePyramid()
        pyramid.update(from: image, maximumLevels: 1)
        var look = LeadingOneLook(reach: 0.8)
        var rectifier: any LineRectifying = ModelLineRectifier()
        var recognizer: any CharacterRecognizer = SeesTheOneInLongerCrops()
        var read = try self.read(&recognizer, pyramid: pyramid)
        #expect(String(read.characters.map(\.character)) == "11.1" && read.leadingOneProbability == 0)
        try look.look(at: line, read: &read, pyramid: pyramid, rectifier: &rectifier, recognizer: &recognizer)
        #expect(read.leadingOneProbability == 0.9)
        #expect(String(read.characters.map(\.character)) == "11.1", "the reading itself is left as it is")

        // Other text in the longer crop (an icon read as a digit that is no 1) tells nothing of a 1.
        recognizer = SeesTheOneInLongerCrops(long: "711.1")
        read = try self.read(&recognizer, pyramid: pyramid)
        try look.look(at: line, read: &read, pyramid: pyramid, rectifier: &rectifier, recognizer: &recognizer)
        #expect(read.leadingOneProbability == 0)

        // A word (no digit) is not looked at.
        recognizer = SeesTheOneInLongerCrops(short: "LO", long: "1LO")
        read = try self.read(&recognizer, pyramid: pyramid)
        try look.look(at: line, read: &read, pyramid: pyramid, rectifier: &rectifier, recognizer: &recognizer)
        #expect(read.leadingOneProbability == 0)
        #expect((recognizer as? SeesTheOneInLongerCrops)?.crops == 1, "only the line's own crop was read")
    }

    func reader(photo: Bool, reach: Double? = ReaderStages.leadingOneLookReach) throws -> DisplayReader {
        let stages = ReaderStages(
            locator: ViewAgreementTests.OneLine(line: line), rectifier: ModelLineRectifier(),
            recognizer: SeesTheOneInLongerCrops(), minimumConfidence: 0.5, turnCheck: SidewaysSecondChance(),
            checksPolarity: false, leadingOneReach: reach)
        return try DisplayReader.standIn(stages: stages, peripheral: 5, photo: photo)
    }

    @Test func aScalesWeightWhoseOneTheLocatorLeftOutIsRefusedInAPhoto() throws {
        // A scale (5): 11.1 kg read in the line's own crop, 111.1 in the longer one; both are plausible.
        var photo = try reader(photo: true)
        let refused = try photo.read(image: image)
        #expect(refused.reading?.readingString == nil)
        #expect(refused.message?.contains("(11.1, or 111.1)") == true, "\(refused.message ?? "")")
        var unlooked = try reader(photo: true, reach: nil)
        #expect(try unlooked.read(image: image).reading?.readingString == "11.1", "without the look the 1 is lost")
        // A camera's frames are read once per line: the look is for photos.
        var live = try reader(photo: false)
        #expect(try live.read(image: image).reading?.readingString == "11.1")
    }

    /// A line crop 88 columns wide, digits 20 px tall from row 6: a `1` at column 14 and four digits at 28, 42, 56
    /// and 70, each two 3-px strokes, the `1` in `oneInk` and the digits in `ink` on `background`.
    static func crop(background: UInt8, ink: UInt8, oneInk: UInt8, polarity: InkPolarity) -> (RectifiedLine, LineTranscript) {
        var image = GrayImage(width: 88, height: 32, fill: background)
        for (x, level) in [(14, oneInk), (28, ink), (42, ink), (56, ink), (70, ink)] {
            for y in 7..<25 { for dx in -1...1 { image[x + dx, y] = level } }
            if x != 14 { for y in 7..<25 { for dx in -6 ... -4 { image[x + dx, y] = level } } }
        }
        var crop = RectifiedLine()
        crop.image = image
        crop.digitTop = 6
        crop.digitHeight = 20
        crop.polarity = polarity
        let characters = zip("1111", [14, 28, 42, 56]).map { c, x in
            RecognizedCharacter(character: c, confidence: 0.9, segments: [], box: PixelRect(x: x - 1, y: 6, width: 3, height: 20))
        } + [RecognizedCharacter(character: "8", confidence: 0.9, segments: [], box: PixelRect(x: 69, y: 6, width: 3, height: 20))]
        return (crop, LineTranscript(characters: characters, contrast: 100, hasGap: false))
    }

    @Test func aOneCountsOnlyWhereItIsLitAsTheDigitsAfterIt() {
        var look = LeadingOneLook(reach: 0.8)
        func lit(background: UInt8, ink: UInt8, oneInk: UInt8, polarity: InkPolarity?) -> Bool {
            var (crop, longer) = Self.crop(background: background, ink: ink, oneInk: oneInk, polarity: polarity ?? .dark)
            crop.polarity = polarity
            return look.leadingOneIsLit(longer, in: crop)
        }
        // Dark digits on a light LCD: a `1` as dark as they are, and a faint ghost of one (an unlit cell).
        #expect(lit(background: 200, ink: 40, oneInk: 40, polarity: .dark))
        #expect(!lit(background: 200, ink: 40, oneInk: 170, polarity: .dark), "a ghost segment is no lit 1")
        // Lit digits on a dark screen, the same way round.
        #expect(lit(background: 30, ink: 230, oneInk: 210, polarity: .light))
        #expect(!lit(background: 30, ink: 230, oneInk: 70, polarity: .light))
        // Where the crop's polarity is not known, the 1 counts as before.
        #expect(lit(background: 30, ink: 230, oneInk: 70, polarity: nil))
    }
}
