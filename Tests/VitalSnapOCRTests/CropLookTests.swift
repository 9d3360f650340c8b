import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A photo of a device with two values or more that found some of them and not all is read once more in the
/// part of it around the lines found (`CropLook`): a display small in the frame shows its smaller rows too small
/// to be found. Checked through the reader itself on real JPEGs with stand-in stages: a locator that finds only
/// rows at least 20 working pixels tall, and a recognizer that reads a row by its grey.
struct CropLookTests {
    /// Each run of columns holding dark pixels (under 160) is a row, found where its dark pixels span at least
    /// `minimumHeight` working pixels from top to bottom.
    struct FindsTallRows: LineLocator {
        var minimumHeight = 20

        func locate(in frame: WorkingFrame) -> [TextLine] {
            let image = frame.working
            var lines: [TextLine] = []
            var x = 0
            while x < image.width {
                guard let top = darkRows(image, x).first else { x += 1; continue }
                var (left, minY, maxY) = (x, top, top)
                while x < image.width {
                    let rows = darkRows(image, x)
                    guard let first = rows.first, let last = rows.last else { break }
                    (minY, maxY) = (min(minY, first), max(maxY, last))
                    x += 1
                }
                let height = maxY - minY + 1
                guard height >= minimumHeight else { continue }
                lines.append(TextLine(
                    candidates: [], polarity: .dark, centerX: Double(left + x) / 2,
                    centerY: Double(minY + maxY + 1) / 2, angle: 0, length: Double(x - left),
                    digitHeight: Double(height), candidatesAreCharacters: false, role: .value))
            }
            return lines.sorted { $0.digitHeight > $1.digitHeight }
        }

        private func darkRows(_ image: GrayImage, _ x: Int) -> [Int] {
            (0..<image.height).filter { image[x, $0] < 160 }
        }
    }

    /// Reads `97` where the middle of the crop is near black, `72` where it is a middle grey; sure of both.
    struct ReadsByGrey: CharacterRecognizer {
        mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
            let image = line.image
            let middle = PixelRect(
                x: image.width / 4, y: image.height / 3, width: image.width / 2, height: image.height / 3)
            let grey = Int(Histogram(image, in: middle).percentile(0.5))
            let read = grey < 50 ? "97" : grey < 130 ? "72" : ""
            let characters = read.enumerated().map { k, c in
                let box = PixelRect(x: 8 + 14 * k, y: 6, width: 12, height: 20)
                return RecognizedCharacter(character: c, confidence: 0.95, segments: [], box: box)
            }
            var transcript = LineTranscript(
                characters: characters, contrast: characters.isEmpty ? 0 : 100, hasGap: false)
            transcript.lineConfidence = 0.9
            return transcript
        }
    }

    func reader(cropLook: CropLook? = CropLook(), peripheral: Int = 6, photo: Bool = true) throws -> DisplayReader {
        var stages = ReaderStages(
            locator: FindsTallRows(), rectifier: ModelLineRectifier(), recognizer: ReadsByGrey(),
            minimumConfidence: 0.5, turnCheck: SidewaysSecondChance(), checksPolarity: false)
        stages.cropLook = cropLook
        return try DisplayReader.standIn(stages: stages, peripheral: peripheral, photo: photo)
    }

    /// A 600x600 grey JPEG (read at its own size) showing an oximeter's SpO2 as a black bar 30 pixels tall
    /// (x 60-140, y 100-130) and its pulse beside it as a grey bar 14 pixels tall (x 160-190, y 108-122), in a
    /// temporary file removed by `body`'s end.
    func withSmallDisplay(_ body: (String) throws -> Void) throws {
        let width = 600, height = 600
        var grey = [UInt8](repeating: 230, count: width * height)
        for y in 100..<130 { for x in 60..<140 { grey[y * width + x] = 10 } }
        for y in 108..<122 { for x in 160..<190 { grey[y * width + x] = 90 } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crop-\(UUID().uuidString).jpg").path
        let photo = GrayImage(width: width, height: height, pixels: grey)
        try ImageEncoder.write(ImageEncoder.jpeg(photo, quality: 95), to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test func aSmallerRowMissedInThePhotoIsFoundInThePartAroundTheRowFound() throws {
        try withSmallDisplay { path in
            var plain = try reader(cropLook: nil)
            let refused = plain.read(file: path)
            #expect(refused.reading?.refusal?.reason == .valuesMissing, "the 14-pixel row is too small")
            let reason = try #require(refused.message)

            var cropping = try reader()
            let result = cropping.read(file: path)
            #expect(result.reading?.readingString == "97/72")
            let region = try #require(result.readRegion)
            // The SpO2 row as placed with 4 digit heights (120 pixels) around it, clipped to the photo: the pulse
            // row in it, and a part small enough for the working frame to enlarge (400 pixels at least).
            let pulse = PixelRect(x: 160, y: 108, width: 30, height: 14)
            #expect(region.intersection(pulse) == pulse, "\(region)")
            #expect(region.x == 0 && region.y == 0 && region.maxY == 250, "\(region)")
            #expect(region.width < 400, "\(region)")
            let prefix = "read in the part of the photo around the lines found"
            let warning = try #require(result.warnings.first { $0.hasPrefix(prefix) })
            #expect(warning.contains(reason), "the warning gives the first reading's reason: \(warning)")
        }
    }

    @Test func aCameraFrameAndADeviceWithOneValueGetNoCropLook() throws {
        try withSmallDisplay { path in
            var live = try reader(photo: false)
            let frame = live.read(file: path)
            #expect(frame.reading?.readingString == nil, "a camera's next frame is its second chance")
            #expect(frame.readRegion == nil)
        }
        // A glucose meter reads this photo's `97` as its value, so no refusal would ask the look: what keeps it
        // from one-value devices is that their reader has no reader for the part at all.
        #expect(try reader().cropReader.count == 1)
        #expect(try reader(peripheral: 9).cropReader.isEmpty)
        #expect(try reader(photo: false).cropReader.isEmpty)
    }

    /// A line read `text` at `confidence`, its box 60 x 30 at (100, 200).
    func line(_ text: String, confidence: Double = 0.99) -> RecognizedLine {
        let characters = text.enumerated().map { k, c in
            let box = PixelRect(x: 14 * k, y: 0, width: 12, height: 30)
            return RecognizedCharacter(character: c, confidence: confidence, segments: [], box: box)
        }
        let corners = LineQuad(center: Point(x: 130, y: 215), angle: 0, length: 60, digitHeight: 30)
        return RecognizedLine(
            characters: characters, confidence: confidence, digitHeight: 30, polarity: .dark, corners: corners,
            contrast: 100, hasGap: false)
    }

    func refused(
        _ lines: [RecognizedLine], _ reason: Refusal.Reason = .valuesMissing, orientation: ExifOrientation = .up
    ) -> PhotoResult {
        let reading = Reading(
            outcome: .none(Refusal(reason, "found \(lines.count) of the 2 values")), confidence: 0,
            recognizedText: lines.map(\.text).joined(separator: "\n"), lines: lines)
        var result = PhotoResult(file: "oximeter.jpg", reading: reading)
        result.readOrientation = orientation
        return result
    }

    func values(_ texts: String...) -> PhotoResult {
        let fields: [FieldName] = [.spo2, .pulse]
        let values = zip(fields, texts).map { field, text in
            FieldValue(field: field, text: text, value: Double(text) ?? 0, unit: "", decimals: 0, confidence: 0.99)
        }
        return PhotoResult(file: "oximeter.jpg", reading: Reading(
            outcome: .values(values), confidence: 0.99, recognizedText: texts.joined(separator: "\n"), lines: []))
    }

    @Test func thePartReadIsTheLinesFoundWithTheirMarginTurnedBackToThePhoto() {
        let look = CropLook()
        let found = refused([line("97")])
        // The line's box is 60 x 30 at (100, 200); 4 digit heights (120 pixels) around it.
        #expect(look.region(after: found, width: 1000, height: 800) == PixelRect(x: 0, y: 80, width: 280, height: 270))
        // Read upside down: the same box of the turned photo is the mirrored box of the photo as given.
        let turned = refused([line("97")], orientation: .down)
        let mirrored = PixelRect(x: 720, y: 450, width: 280, height: 270)
        #expect(look.region(after: turned, width: 1000, height: 800) == mirrored)
        // A part as large as most of the photo shows the display no larger: not read.
        #expect(look.region(after: found, width: 300, height: 400) == nil)
        // Only where values were missing, the photo read as it stands, and no glare over the digits.
        #expect(look.region(after: refused([line("97")], .noDigits), width: 1000, height: 800) == nil)
        var tilted = found
        tilted.readTilt = 0.26
        #expect(look.region(after: tilted, width: 1000, height: 800) == nil)
        var glared = found
        glared.glare = GlareReport(regions: [], share: 0.1, coversDigits: true)
        #expect(look.region(after: glared, width: 1000, height: 800) == nil)
    }

    @Test func thePartsReadingMustBearOutTheLinesFound() {
        let look = CropLook()
        #expect(look.bearsOut(values("97", "72"), refused: refused([line("97")])))
        #expect(!look.bearsOut(values("94", "72"), refused: refused([line("97")])), "the 97 found is read otherwise")
        #expect(look.bearsOut(values("94", "72"), refused: refused([line("97", confidence: 0.3)])),
                "a line found in doubt binds nothing")
        #expect(!look.bearsOut(values("97", "72"), refused: refused([line("97"), line("173", confidence: 0.65)])),
                "a line read more likely right than not, below the threshold of sure, binds")
        #expect(!look.bearsOut(refused([line("97")]), refused: refused([line("97")])), "no values, nothing to take")
    }
}
