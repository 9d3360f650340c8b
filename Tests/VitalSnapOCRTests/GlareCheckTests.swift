import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// The glare check of a reading, as the reader makes it (`GlareCheck`): with the polarity of the value's line, and where that
/// polarity could only be told from the characters' own band (a line filling a crop of the display), with the
/// other polarity too.
@Suite struct GlareCheckTests {
    /// A crop of a display: bold dark 8s (ink 40) on a light window (215), its right end brighter (250) as a
    /// window's edge often is; three digits 34 px tall, 20 wide, at x = 20, 42, 64.
    let digits = [PixelRect(x: 20, y: 3, width: 20, height: 34), PixelRect(x: 42, y: 3, width: 20, height: 34),
                  PixelRect(x: 64, y: 3, width: 20, height: 34)]

    func crop() -> GrayImage {
        var image = GrayImage(width: 120, height: 40, fill: 215)
        fill(&image, PixelRect(x: 96, y: 0, width: 24, height: 40), 250)
        for d in digits {
            for bar in [PixelRect(x: d.x, y: d.y, width: d.width, height: 6), PixelRect(x: d.x, y: d.maxY - 6, width: d.width, height: 6),
                        PixelRect(x: d.x, y: d.y + 14, width: d.width, height: 6), PixelRect(x: d.x, y: d.y, width: 6, height: d.height),
                        PixelRect(x: d.maxX - 6, y: d.y, width: 6, height: d.height)] {
                fill(&image, bar, 40)
            }
        }
        return image
    }

    func fill(_ image: inout GrayImage, _ rect: PixelRect, _ level: UInt8) {
        for y in rect.minY..<rect.maxY { for x in rect.minX..<rect.maxX { image[x, y] = level } }
    }

    /// A reading of 888 from one line over the digits, with the polarity its rectifier gave it.
    func reading(polarity: InkPolarity, sure: Bool) -> Reading {
        let characters = digits.map { RecognizedCharacter(character: "8", confidence: 1, segments: [], box: $0) }
        var line = RecognizedLine(
            characters: characters, confidence: 1, digitHeight: 34, polarity: polarity,
            corners: LineQuad(
                topLeft: Point(x: 20, y: 3), topRight: Point(x: 84, y: 3), bottomRight: Point(x: 84, y: 37),
                bottomLeft: Point(x: 20, y: 37)),
            contrast: 150, hasGap: false)
        line.polarityIsSure = sure
        return Reading(outcome: .values([]), confidence: 1, recognizedText: "888", lines: [line])
    }

    @Test func aLineWhosePolarityIsUnsureIsRefusedOnlyForGlareBothPolaritiesSee() throws {
        var reader = GlareCheck()
        let image = crop()
        // Taken for light digits, the window's bright end and background are glare over the digits; as the
        // dark digits they are, nothing is.
        #expect(reader.check(image, reading: reading(polarity: .light, sure: true)).coversDigits)
        #expect(!reader.check(image, reading: reading(polarity: .dark, sure: true)).coversDigits)
        // Told from the band alone, the light polarity is not trusted: the dark one sees no glare.
        #expect(!reader.check(image, reading: reading(polarity: .light, sure: false)).coversDigits)
        // A reflection over the middle digit is glare either way.
        var glared = image
        fill(&glared, PixelRect(x: 44, y: 8, width: 16, height: 22), 255)
        #expect(reader.check(glared, reading: reading(polarity: .light, sure: false)).coversDigits)
        #expect(reader.check(glared, reading: reading(polarity: .dark, sure: false)).coversDigits)
    }

    /// A backlit display read sideways (a photo turned a quarter): three lit 8s reading down the image, 34 px
    /// tall across the line (x = 23...57) and 20 long each (y = 20, 46, 72), strokes 6 px wide, on a dark window.
    /// A trained recognizer's character boxes are spikes across the line, 4 px long.
    func sidewaysDisplay() -> GrayImage {
        var image = GrayImage(width: 80, height: 150, fill: 90)
        fill(&image, PixelRect(x: 10, y: 10, width: 60, height: 130), 30)
        for top in [20, 46, 72] {
            for x in [23, 37, 51] { fill(&image, PixelRect(x: x, y: top, width: 6, height: 20), 250) }
            fill(&image, PixelRect(x: 23, y: top, width: 34, height: 6), 250)
            fill(&image, PixelRect(x: 23, y: top + 14, width: 34, height: 6), 250)
        }
        return image
    }

    func sidewaysReading() -> Reading {
        let characters = [20, 46, 72].map {
            RecognizedCharacter(character: "8", confidence: 1, segments: [], box: PixelRect(x: 23, y: $0 + 8, width: 34, height: 4))
        }
        let line = RecognizedLine(
            characters: characters, confidence: 1, digitHeight: 34, polarity: .light,
            corners: LineQuad(
                topLeft: Point(x: 57, y: 20), topRight: Point(x: 57, y: 92), bottomRight: Point(x: 23, y: 92),
                bottomLeft: Point(x: 23, y: 20)),
            contrast: 200, hasGap: false)
        return Reading(outcome: .values([]), confidence: 1, recognizedText: "888", lines: [line])
    }

    /// Its lit strokes are not glare: they are narrower than a quarter of the digits' height across the line,
    /// though wider than a quarter of the character boxes' height (which was taken for the digit height).
    @Test func theLitDigitsOfASidewaysBacklitDisplayAreNotGlare() {
        var check = GlareCheck()
        let report = check.check(sidewaysDisplay(), reading: sidewaysReading())
        #expect(!report.coversDigits, "\(report.regions)")
        #expect(report.regions.isEmpty)
    }

    /// A reflection just past the number's end, below it, where it may hide a last digit, covers it: the cells
    /// before and after a sideways number lie along its reading direction.
    @Test func aSpotPastTheEndOfASidewaysNumberCoversIt() {
        var check = GlareCheck()
        var image = sidewaysDisplay()
        let spot = PixelRect(x: 25, y: 97, width: 30, height: 22)
        fill(&image, spot, 255)
        let report = check.check(image, reading: sidewaysReading())
        #expect(report.coversDigits)
        #expect(report.regions == [spot])
    }

    /// A reflection between two of a number's characters, on neither character's box, covers the number: a
    /// trained recognizer's boxes are narrow spikes on the digits, and a digit washed out between them has none.
    /// The first and last 8 of the crop, read as 88 with spikes 4 px wide at their middles, under a spot over the
    /// middle 8 (whose box the recognizer never gave).
    @Test func aSpotBetweenTwoCharactersOfANumberCoversIt() {
        var image = crop()
        let spot = PixelRect(x: 44, y: 8, width: 16, height: 24)
        fill(&image, spot, 255)
        let spikes = [digits[0], digits[2]].map { d in
            RecognizedCharacter(character: "8", confidence: 1, segments: [], box: PixelRect(x: d.x + d.width / 2 - 2, y: d.y, width: 4, height: d.height))
        }
        let line = straightLine(
            spikes, over: PixelRect(x: 20, y: 3, width: 64, height: 34), polarity: .dark, contrast: 150)
        let reading = Reading(outcome: .values([]), confidence: 1, recognizedText: "88", lines: [line])
        var check = GlareCheck()
        #expect(check.check(image, reading: reading) { _, _ in false }.coversDigits)
        // The characters' boxes alone do not see it.
        check.configuration.coverSpanBetweenCharacters = false
        #expect(!check.check(image, reading: reading) { _, _ in false }.coversDigits)
    }

    /// A line across the image over `box` (its digits as tall), its polarity sure.
    func straightLine(
        _ characters: [RecognizedCharacter], over box: PixelRect, polarity: InkPolarity, contrast: Int
    ) -> RecognizedLine {
        let (x0, y0, x1, y1) = (Double(box.minX), Double(box.minY), Double(box.maxX), Double(box.maxY))
        var line = RecognizedLine(
            characters: characters, confidence: 1, digitHeight: Double(box.height), polarity: polarity,
            corners: LineQuad(
                topLeft: Point(x: x0, y: y0), topRight: Point(x: x1, y: y0), bottomRight: Point(x: x1, y: y1),
                bottomLeft: Point(x: x0, y: y1)),
            contrast: contrast, hasGap: false)
        line.polarityIsSure = true
        return line
    }

    /// A backlit display's `5.8` (lit strokes at 90 on a window at 25, digits 30 px tall at x = 100 and 122) whose
    /// line the locator found reaching 60 px further back, to x = 40: the recognizer read nothing there.
    func unreadStretchScene(spotLevel: UInt8) -> (GrayImage, Reading) {
        var image = GrayImage(width: 200, height: 60, fill: 25)
        let boxes = [PixelRect(x: 100, y: 15, width: 18, height: 30), PixelRect(x: 122, y: 15, width: 18, height: 30)]
        for d in boxes {
            for bar in [PixelRect(x: d.x, y: d.y, width: d.width, height: 4),
                        PixelRect(x: d.x, y: d.maxY - 4, width: d.width, height: 4),
                        PixelRect(x: d.x, y: d.y + 13, width: d.width, height: 4),
                        PixelRect(x: d.maxX - 4, y: d.y, width: 4, height: d.height)] {
                fill(&image, bar, 90)
            }
        }
        // A solid spot in the unread stretch, well clear of the digits.
        fill(&image, PixelRect(x: 55, y: 18, width: 20, height: 24), spotLevel)
        let characters = boxes.map { RecognizedCharacter(character: "8", confidence: 1, segments: [], box: $0) }
        var line = straightLine(
            characters, over: PixelRect(x: 100, y: 15, width: 40, height: 30), polarity: .light, contrast: 60)
        line.locatedBox = PixelRect(x: 40, y: 15, width: 105, height: 30)
        return (image, Reading(outcome: .values([]), confidence: 1, recognizedText: "88", lines: [line]))
    }

    @Test func aReflectionOverAStretchOfTheLineLeftUnreadCoversTheNumber() {
        var check = GlareCheck()
        let (glared, reading) = unreadStretchScene(spotLevel: 232)
        #expect(check.check(glared, reading: reading).coversDigits)
        // Not where no digit could hide before the number.
        #expect(!check.check(glared, reading: reading) { _, side in side == .after }.coversDigits)
        // A lit icon there, no brighter than the digits, is no reflection.
        let (icon, _) = unreadStretchScene(spotLevel: 90)
        #expect(!check.check(icon, reading: reading).coversDigits)
        // The cells beyond the located line's ends alone do not see the reflection.
        check.configuration.coverUnreadStretches = false
        #expect(!check.check(glared, reading: reading).coversDigits)
    }
}
