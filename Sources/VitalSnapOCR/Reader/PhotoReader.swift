import Foundation
import Logging
import VitalSnapImaging

/// Reads one still photo for one peripheral: decode, find and read the display's lines, assemble the reading,
/// check for glare over the digits. One reader per thread; it keeps its buffers between photos.
public struct PhotoReader: Sendable {
    public var assembler: ReadingAssembler
    public var decodeOptions: DecodeOptions
    /// The line-reading stages and what they saw in the last orientation read (for `vitalsnap inspect`).
    public var lineReader: TextLineReader
    private var glareDetector = GlareDetector()
    /// The boxes glare is looked for over, kept between photos.
    private var digitBoxes: [PixelRect] = []
    private var nearbyBoxes: [PixelRect] = []
    private let logger = Logger(label: "vitalsnap.ocr")

    /// JPEGs are decoded at a reduced DCT scale when the photo is large: digits stay sharp enough and decoding
    /// gets several times faster.
    public static let defaultDecodeOptions = DecodeOptions(minimumLongSide: 1000)

    public init(peripheral: PeripheralDefinition, unit: String? = nil, reader: ReaderChoice = .rules) {
        let stages = reader.stages()
        lineReader = TextLineReader(stages: stages)
        assembler = ReadingAssembler(
            peripheral: peripheral, unit: unit, minimumConfidence: stages.minimumConfidence,
            checksPolarity: !stages.recognizer.readsEitherPolarity)
        decodeOptions = Self.defaultDecodeOptions
    }

    public mutating func read(file: String) -> PhotoResult {
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder.decode(contentsOf: file, options: decodeOptions)
        } catch {
            logger.debug("\(file): not decoded: \(error)")
            return PhotoResult(file: file, status: .error, message: String(describing: error))
        }
        var result = read(image: decoded.image, file: file)
        logger.debug("""
            \(file): \(decoded.originalWidth)x\(decoded.originalHeight) decoded at \(decoded.image.width)x\(decoded.image.height), \
            \(result.reading?.readingString ?? result.reading?.word.map { "word \($0)" } ?? "no reading: \(result.message ?? "")"), \
            display \(result.reading?.recognizedText.replacingOccurrences(of: "\n", with: " | ") ?? "")
            """)
        result.imageWidth = decoded.originalWidth
        result.imageHeight = decoded.originalHeight
        // The decoder's warnings first, then the reader's own (a photo read turned).
        result.warnings = decoded.warnings + result.warnings
        return result
    }

    /// Reads a photo that may be turned: the orientation policy. Stages with an orienter (the trained reader)
    /// read the photo as it is, then show the orienter the lines found there; where it is sure that the photo is
    /// turned, the photo is read again turned back and that reading stands (`readStoodUpright`). A trained
    /// locator finds lines in any orientation, so its reading of the photo as it is stands otherwise. For the
    /// rule-based reader: phones store photos upside down or
    /// sideways more often than one would think (and EXIF may be missing), so when the photo as it is gives no
    /// value, it is read turned by 180 degrees, then by 90 and 270. Many digits read as digits upside down too (0, 1, 2, 5, 6, 8, 9: an
    /// 89 turned is a 68), so a turned reading is only taken where the photo as it is shows nothing that
    /// looks like digits: if it does, the digits are there the right way up but unclear, and turning them
    /// would only make up a number; and a value made only of such digits is checked upside down too. A turned
    /// value made only of such digits needs digits at the same place the other way up as well (they read
    /// either way), which the first rule then refuses: turned, only a 3, 4, 7 or decimal point is evidence.
    /// Numeric displays (peripheral type `numericDisplay`) have no plausible range to check a turned reading
    /// against and are read only as they are.
    public mutating func read(image: GrayImage, file: String = "") -> PhotoResult {
        var (upright, allLines) = readAsIs(image)
        upright.file = file
        // What the locator found, in the frame it looked at, tells the orienter where the display is.
        let (frame, located) = (lineReader.working, lineReader.detectedLines)
        let estimate = lineReader.stages.orienter?.orientation(of: frame, lines: located)
        if let estimate, estimate.turnsThePhoto { return readStoodUpright(image, estimate, file: file) }
        if let estimate, !estimate.isSure, let sideways = readSideways(image, guess: estimate, after: upright, file: file) {
            return sideways
        }
        // A locator that finds lines in any orientation gives each line its reading direction: the photo has
        // been read however it was turned.
        guard assembler.peripheral.type != .numericDisplay, !lineReader.stages.locator.findsAnyOrientation else { return upright }
        if let value = upright.reading?.readingString {
            // Digits that all read as digits upside down too (0 1 2 5 6 8 9) may be a turned photo of another
            // value: 99/89 turned reads 68/66. When the turned photo gives a different plausible value,
            // nothing is read.
            guard value.allSatisfy({ !"347".contains($0) }) else { return upright }
            let (turned, _) = readAsIs(image.rotated180())
            if let other = turned.reading?.readingString, other != value {
                return Self.refusal(upright, "the photo reads \(value) one way up and \(other) the other")
            }
            return upright
        }
        if case .word = upright.reading?.outcome { return upright }
        // Each orientation read at most once, with its digit lines in the photo's own coordinates.
        var analyses: [ExifOrientation: (result: PhotoResult, places: [PixelRect])] = [
            .up: (upright, Self.digitLines(in: allLines).map(\.boundingBox))
        ]
        func analysis(_ orientation: ExifOrientation) -> (result: PhotoResult, places: [PixelRect]) {
            if let done = analyses[orientation] { return done }
            let (result, all) = readTurned(image, orientation, file: file)
            let lines = Self.digitLines(in: all)
            let untilt = { (box: PixelRect) in box.turnedBack(orientation, width: image.width, height: image.height) }
            // The value's own lines, mapped back, stand first: they are what the opposite turn is checked at.
            let places = (result.reading?.lines.map(\.boundingBox) ?? []).map(untilt) + lines.map(\.boundingBox).map(untilt)
            analyses[orientation] = (result, places)
            return (result, places)
        }
        var found: [PhotoResult] = []
        for orientation in [ExifOrientation.down, .right, .left] {
            // Sideways only when upside down gave nothing; then both sideways turns, to compare them.
            if orientation == .right && !found.isEmpty { break }
            var (result, places) = analysis(orientation)
            guard let reading = result.reading, reading.readingString != nil || reading.word != nil else { continue }
            // Where the value was read, the photo turned the opposite way must not show digits too: then the
            // digits may be the right way up there, merely unclear.
            let valuePlaces = places.prefix(reading.lines.count)
            let other = analysis(Self.opposite[orientation]!)
            let clash = other.places.contains { line in
                valuePlaces.contains { place in
                    Double(line.intersection(place).area) >= 0.3 * Double(min(line.area, place.area))
                }
            }
            // Unless the value cannot be a turned view of those digits: it shows a 3, 4 or 7 or a decimal point,
            // which read as no digit the other way up, and the other way gives no value at all. A word only
            // when the digits the other way are no possible value either (LO turned is 07, 107 turned is L01).
            let otherHasNoValue = other.result.reading?.readingString == nil
            let unexplained = reading.word != nil
                ? otherHasNoValue && !showsPossibleValue(other.result.reading?.lines ?? [])
                : otherHasNoValue && Self.changesUnderAHalfTurn(reading)
            if clash && !unexplained { continue }
            // Digits that read as digits either way up (0 1 2 5 6 8 9) must show as digits the other way up
            // too; where that view sees none, the value is a pattern in noise or texture, not a display.
            if !clash && reading.word == nil && !Self.changesUnderAHalfTurn(reading) { continue }
            result.warnings.append("read turned: the photo was \(orientation == .down ? "upside down" : "sideways")")
            found.append(result)
        }
        if found.count == 1 { return found[0] }
        if found.count > 1 {
            let values = Set(found.compactMap { $0.reading?.readingString ?? $0.reading?.word })
            if values.count == 1 { return found[0] }
            return Self.refusal(upright, "the photo reads differently turned different ways (\(values.sorted().joined(separator: ", ")))")
        }
        return upright
    }

    /// The turn that shows a photo the other way up from each of the turns the policies read.
    static let opposite: [ExifOrientation: ExifOrientation] = [.down: .up, .up: .down, .right: .left, .left: .right]

    /// The orienter's policy, for stages that have one (the trained reader): where it is sure that the photo is
    /// turned (`estimate`), the photo is read stood upright (its glare mapped back to the photo as given) and
    /// that reading stands, value or refusal.
    mutating func readStoodUpright(_ image: GrayImage, _ estimate: OrientationEstimate, file: String) -> PhotoResult {
        var (result, _) = readTurned(image, estimate.uprightingOrientation, file: file)
        let how = estimate.clockwiseTurns == 2 ? "upside down" : "sideways"
        result.warnings.append("read turned: the photo was \(how) (orienter \(String(format: "%.2f", estimate.confidence)))")
        logger.debug("\(file): the orienter turns the photo by \(estimate.clockwiseTurns) quarter turns counter-clockwise")
        return result
    }

    /// The orienter's second chance, for a photo that gives no value or word as it is: where the orienter
    /// guesses that the photo is sideways (`guess`, not sure), it is read turned back that way.
    /// Its quarter turns are sometimes the opposite one, which shows the digits upside down, so the photo is
    /// read the other quarter turn as well, and a different value or word there refuses both. Nil where there
    /// is no such guess or the turned photo gives nothing either: the photo's reading as it is stands.
    mutating func readSideways(_ image: GrayImage, guess: OrientationEstimate, after upright: PhotoResult, file: String) -> PhotoResult? {
        guard upright.reading?.readingString == nil, upright.reading?.word == nil else { return nil }
        var (turned, _) = readTurned(image, guess.uprightingOrientation, file: file)
        guard let value = turned.reading?.readingString ?? turned.reading?.word else { return nil }
        let (other, _) = readTurned(image, Self.opposite[guess.uprightingOrientation]!, file: file)
        if let otherValue = other.reading?.readingString ?? other.reading?.word, otherValue != value {
            return Self.refusal(upright, "the photo reads \(value) turned one way and \(otherValue) the other")
        }
        turned.warnings.append("read turned: the photo was sideways (orienter \(String(format: "%.2f", guess.confidence)), nothing read as it is)")
        logger.debug("\(file): nothing read as it is; read turned by \(guess.clockwiseTurns) quarter turns counter-clockwise")
        return turned
    }

    /// Reads `image` transformed by `orientation` (a turn), as it is: the result named `file`, its glare mapped
    /// back to `image`'s pixels; also every line read, in the turned frame.
    mutating func readTurned(_ image: GrayImage, _ orientation: ExifOrientation, file: String) -> (result: PhotoResult, lines: [RecognizedLine]) {
        var (result, lines) = readAsIs(image.applying(orientation))
        result.file = file
        result.readOrientation = orientation
        result.glare = result.glare.map { $0.turned(orientation, imageWidth: image.width, imageHeight: image.height) }
        return (result, lines)
    }

    /// A value with a character that is no digit when turned by 180 degrees (3, 4 and 7 read as E, h and L; a
    /// decimal point moves to the top of the line), so it cannot be another value seen upside down.
    static func changesUnderAHalfTurn(_ reading: Reading) -> Bool {
        reading.values.contains { $0.text.contains { "347.".contains($0) } }
    }

    /// Whether any of `lines` may show a value of this peripheral, however unclear: an unreadable character
    /// may be anything, and digits the assembler would take for a field if they were clear are one.
    func showsPossibleValue(_ lines: [RecognizedLine]) -> Bool {
        lines.contains { line in
            if line.text.contains("?") { return true }
            var clear = line
            clear.hasGap = false
            clear.confidence = 1
            for i in clear.characters.indices { clear.characters[i].confidence = 1 }
            return assembler.peripheral.measurementFields.contains { field in
                if case .success = assembler.value(of: clear, for: field) { return true }
                return false
            }
        }
    }

    /// A small image is a crop of the display itself (a clinic's cropped photos, a field of a form).
    public static func isDisplayCrop(_ image: GrayImage) -> Bool { max(image.width, image.height) <= 640 }

    static func refusal(_ result: PhotoResult, _ why: String) -> PhotoResult {
        var r = result
        r.status = .noReading
        r.message = why
        r.reading?.outcome = .none(why)
        r.reading?.confidence = 0
        return r
    }

    /// Reads the photo as it is, without trying other orientations; also returns the lines with a clear digit.
    public mutating func readOriented(_ image: GrayImage) -> (PhotoResult, [RecognizedLine]) {
        let (result, lines) = readAsIs(image)
        return (result, Self.digitLines(in: lines))
    }

    /// Any clearly read digit counts as digits seen the right way up.
    static func digitLines(in lines: [RecognizedLine]) -> [RecognizedLine] {
        lines.filter { $0.characters.contains { SegmentAlphabet.isDigit($0.character) && $0.confidence >= 0.5 } && !$0.isTexture }
    }

    /// Reads the photo as it is, without trying other orientations; also returns every line read.
    mutating func readAsIs(_ image: GrayImage) -> (result: PhotoResult, lines: [RecognizedLine]) {
        let lines = lineReader.read(image, wholeImageIsDisplay: Self.isDisplayCrop(image))
        var reading = assembler.assemble(lines)
        let glare = detectGlare(in: image, reading: reading)
        if glare.coversDigits, case .values = reading.outcome {
            reading.outcome = .none("glare covers the digits")
            reading.confidence = 0
        }
        let status: PhotoResult.Status
        let message: String?
        switch reading.outcome {
        case .values: status = .ok; message = nil
        case .word(let w): status = .noReading; message = "the display shows \(w)"
        case .none(let why): status = .noReading; message = why
        }
        return (PhotoResult(file: "", status: status, reading: reading, glare: glare, message: message), lines)
    }

    mutating func detectGlare(in image: GrayImage, reading: Reading) -> GlareReport {
        guard let first = reading.lines.first, let union = reading.linesBox else { return .none }
        // Glare matters where it covers the characters themselves, and the cell just before and after the
        // number, where it may hide a whole digit (11.4 read as 1.4), but not the rest of the display.
        digitBoxes.removeAll(keepingCapacity: true)
        for line in reading.lines {
            for c in line.characters { digitBoxes.append(line.imageBox(of: c)) }
        }
        nearbyBoxes.removeAll(keepingCapacity: true)
        for line in reading.lines {
            // Beside the number as located where the locator knew its ends (a trained recognizer's character
            // boxes are narrow spikes on the digits), else beside the characters read.
            let read = line.boundingBox
            var box = read
            if let located = line.locatedBox {
                // Its ends only: the cells keep the characters' rows.
                box = read.union(located)
                box.y = read.y
                box.height = read.height
            }
            let cell = Int(0.6 * line.digitHeight)
            nearbyBoxes.append(PixelRect(x: box.minX - cell, y: box.minY, width: cell, height: box.height))
            nearbyBoxes.append(PixelRect(x: box.maxX, y: box.minY, width: cell, height: box.height))
        }
        // Only just around the lines (and their neighbouring cells): further out lies the body of the
        // device, often white plastic.
        let margin = Int(first.digitHeight * 0.2)
        let display = union.insetBy(dx: -margin - Int(0.6 * first.digitHeight), dy: -margin)
        let report = glareDetector.detect(
            in: image, display: display, digits: digitBoxes, nearby: nearbyBoxes, polarity: first.polarity)
        // A line cut from a crop of the display has no rows of the display above and below its digits to tell
        // its polarity against, and a bright end of the window makes dark digits look light; taken the wrong
        // way, the display's own bright background becomes glare (an orange electricity meter's, refused).
        // There glare must be found over the digits with the other polarity too.
        guard report.coversDigits, !first.polarityIsSure else { return report }
        let other = glareDetector.detect(
            in: image, display: display, digits: digitBoxes, nearby: nearbyBoxes,
            polarity: first.polarity == .dark ? .light : .dark)
        if other.coversDigits { return report }
        var unsure = report
        unsure.coversDigits = false
        return unsure
    }
}
