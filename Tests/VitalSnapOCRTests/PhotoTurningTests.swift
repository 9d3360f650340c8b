import Foundation
import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

/// The rule-based reader (`RuleTurnSearch`, its last look) on photos stored turned: sideways or upside down, without EXIF to say so. Many digits read
/// as digits upside down too (89 turned is 68), so a turned value is taken only where it cannot be a
/// turned view of other digits. Frames of 200x120 with one number in LCD digits 36 px tall.
final class PhotoTurningTests: XCTestCase {
    let font = SegmentText().scaled(36.0 / 32)

    func photo(_ text: String) -> GrayImage {
        Frames.render(text, as: font, width: 200, height: 120, placement: Placement(x: 50, y: 40, angle: 0), background: 190, ink: 40)
    }

    func read(_ image: GrayImage, unit: String? = nil) throws -> PhotoResult {
        let glucoseMeter = try XCTUnwrap(PeripheralCatalog.builtIn()[9])
        var reader = DisplayReader(peripheral: glucoseMeter, unit: unit, reader: .rules)
        return try reader.read(image: image)
    }

    func testUprightPhotoIsReadWithoutTurning() throws {
        let result = try read(photo("6.9"), unit: "mmol/L")
        XCTAssertEqual(result.reading?.readingString, "6.9", "\(result.message ?? "") \(result.reading?.recognizedText ?? "")")
        XCTAssertFalse(result.warnings.contains { $0.hasPrefix("read turned") })
    }

    /// Sideways, both quarter turns show digits where the value is; a decimal point tells the right one.
    func testASidewaysValueWithADecimalPointIsReadEitherWay() throws {
        for (name, image) in [("clockwise", photo("6.9").rotated90Clockwise()), ("counter-clockwise", photo("6.9").rotated90CounterClockwise())] {
            let result = try read(image, unit: "mmol/L")
            XCTAssertEqual(result.reading?.readingString, "6.9", name)
            XCTAssertTrue(result.warnings.contains("read turned: the photo was sideways"), "\(name): \(result.warnings)")
        }
    }

    func testAnUpsideDownValueWithASevenIsRead() throws {
        let result = try read(photo("127").rotated180())
        XCTAssertEqual(result.reading?.readingString, "127")
        XCTAssertTrue(result.warnings.contains("read turned: the photo was upside down"), "\(result.warnings)")
    }

    /// 89 and 68 are each other turned by half a turn: a sideways photo of either may be read or refused, but
    /// never read as the other.
    func testTurnableDigitsAreNeverReadAsTheirTurnedCounterpart() throws {
        for (shown, turned) in [("89", "68"), ("68", "89")] {
            for image in [photo(shown).rotated90Clockwise(), photo(shown).rotated90CounterClockwise(), photo(shown).rotated180()] {
                let value = try read(image).reading?.readingString
                XCTAssertNotEqual(value, turned, "\(shown) read as its turned counterpart")
                XCTAssertTrue(value == nil || value == shown, "\(shown) read as \(value ?? "")")
            }
        }
    }

    /// LO upside down shows 07, which is no glucose value: the word, read the other way up, is what it shows.
    func testAWordUpsideDownIsReadAsTheWord() throws {
        let upsideDown = try read(photo("L0").rotated180())
        XCTAssertEqual(upsideDown.reading?.word, "LO")
        XCTAssertNil(upsideDown.reading?.readingString)
        XCTAssertEqual(try read(photo("L0")).reading?.word, "LO")
    }

    /// A word read turned is trusted only where the digits the other way up are no possible value: 107 turned
    /// shows L01, which must not become LO (a dangerously low glucose).
    func testOnlyDigitsThatAreNoPossibleValueLeaveRoomForATurnedWord() throws {
        let assembler = ReadingAssembler(peripheral: try XCTUnwrap(PeripheralCatalog.builtIn()[9]))
        func line(_ text: String) -> RecognizedLine {
            let characters = text.map { RecognizedCharacter(character: $0, confidence: 0.3, segments: [], box: PixelRect(x: 0, y: 0, width: 10, height: 20)) }
            return RecognizedLine(characters: characters, confidence: 0.3, digitHeight: 20, polarity: .dark, corners: nil, contrast: 100, hasGap: false)
        }
        XCTAssertFalse(RuleTurnSearch.showsPossibleValue([line("07")], assembler: assembler))
        XCTAssertFalse(RuleTurnSearch.showsPossibleValue([], assembler: assembler))
        XCTAssertTrue(RuleTurnSearch.showsPossibleValue([line("107")], assembler: assembler))
        XCTAssertTrue(RuleTurnSearch.showsPossibleValue([line("07"), line("1?7")], assembler: assembler))
    }

    /// Read from a file, the result still says the photo was turned (the decoder's warnings once replaced it).
    func testAPhotoFileReadTurnedSaysSo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-turned-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ImageEncoder.write(ImageEncoder.png(photo("127").rotated180()), to: path)
        let glucoseMeter = try XCTUnwrap(PeripheralCatalog.builtIn()[9])
        var reader = DisplayReader(peripheral: glucoseMeter, reader: .rules)
        let result = reader.read(file: path)
        XCTAssertEqual(result.reading?.readingString, "127")
        XCTAssertTrue(result.warnings.contains("read turned: the photo was upside down"), "\(result.warnings)")
    }

    /// Random noise that reads as 88 upside down, and as no digits at all the right way up: digits that read
    /// either way up (0 1 2 5 6 8 9) would show the other way up too, so this is a pattern in the noise.
    func testTurnableDigitsSeenOnlyTurnedAreNotAValue() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/uniform-noise-200x31.png").path
        let noise = try ImageDecoder.decode(contentsOf: fixture).image
        let glucoseMeter = try XCTUnwrap(PeripheralCatalog.builtIn()[9])
        var reader = DisplayReader(peripheral: glucoseMeter, reader: .rules)
        XCTAssertNil(try reader.read(image: noise).reading?.readingString)
        // The turned view alone does read 88: the rule, not a change in what is seen, keeps it out.
        var asItStands = DisplayReader.Configuration()
        asItStands.standsPhotosUpright = false
        var plain = DisplayReader(peripheral: glucoseMeter, reader: .rules, configuration: asItStands)
        let turned = try plain.read(image: noise.rotated180())
        XCTAssertEqual(turned.reading?.readingString, "88")
    }
}
