import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

/// `RuleCharacterRecognizer.trimToCandidates`: what lies beside a number that was not read into it.
/// Digits here are 20x32 at a 26 px pitch, from x = 10, top at row 10.
final class NumberTrimmingTests: XCTestCase {
    func digit(_ c: Character, at index: Int) -> RecognizedCharacter {
        RecognizedCharacter(character: c, confidence: 0.9, segments: [], box: PixelRect(x: 10 + 26 * index, y: 10, width: 20, height: 32))
    }

    func trim(
        _ chars: [RecognizedCharacter], candidates: Int,
        configuration: RuleCharacterRecognizer.Configuration = .init()
    ) -> (String, Bool) {
        let spans = chars.prefix(candidates).map { $0.box.minX...($0.box.maxX - 1) }
        let r = RuleCharacterRecognizer.trimToCandidates(chars, spans: Array(spans), typicalWidth: 20, configuration: configuration)
        return (String(r.characters.map(\.character)), r.unclearNeighbour)
    }

    func testNothingBesideTheNumberIsClear() {
        let (text, unclear) = trim([digit("2", at: 0), digit("0", at: 1), digit("5", at: 2)], candidates: 3)
        XCTAssertEqual(text, "205")
        XCTAssertFalse(unclear)
    }

    /// A trailing digit merged with a label under it: its cell starts at the digits' top, runs below their
    /// feet and is not aligned. It may be the number's last digit, so the number is doubtful.
    func testTallUnalignedCellRightAfterTheNumberMakesItDoubtful() {
        let merged = RecognizedCharacter(
            character: "?", confidence: 0, segments: [], box: PixelRect(x: 10 + 26 * 3, y: 11, width: 22, height: 50),
            isAligned: false)
        let (text, unclear) = trim([digit("2", at: 0), digit("0", at: 1), digit("5", at: 2), merged], candidates: 3)
        XCTAssertEqual(text, "205")
        XCTAssertTrue(unclear)
        // How much taller than the digits such a cell must be is the configuration's: that one is about 1.6
        // times their height, too short where twice is asked for.
        var stricter = RuleCharacterRecognizer.Configuration()
        stricter.number.mergedMinimumHeight = 2
        let (_, unclearWhenStricter) = trim(
            [digit("2", at: 0), digit("0", at: 1), digit("5", at: 2), merged], candidates: 3, configuration: stricter)
        XCTAssertFalse(unclearWhenStricter)
    }

    /// A bezel edge beside the number reaches well above the digits' top: not one of its digits.
    func testFrameEdgeReachingAboveTheDigitsIsNotADigit() {
        let edge = RecognizedCharacter(
            character: "?", confidence: 0, segments: [], box: PixelRect(x: 10 + 26 * 3, y: 0, width: 22, height: 60),
            isAligned: false)
        let (_, unclear) = trim([digit("2", at: 0), digit("0", at: 1), digit("5", at: 2), edge], candidates: 3)
        XCTAssertFalse(unclear)
    }

    /// Far from the number (a label two cells away), an unaligned cell is not one of its digits.
    func testTallUnalignedCellFarAwayIsNotADigit() {
        let label = RecognizedCharacter(
            character: "?", confidence: 0, segments: [], box: PixelRect(x: 10 + 26 * 4 + 10, y: 11, width: 22, height: 50),
            isAligned: false)
        let (_, unclear) = trim([digit("2", at: 0), digit("0", at: 1), digit("5", at: 2), label], candidates: 3)
        XCTAssertFalse(unclear)
    }
}
