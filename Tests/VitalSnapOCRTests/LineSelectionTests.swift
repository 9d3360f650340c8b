import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A located line inside a taller line already read is a piece of its digits and is not read; a line beside or
/// under a slanted line, inside only that line's upright bounding box, is a line of its own.
struct LineSelectionTests {
    /// A detector's line: no character candidates, only its geometry.
    func detected(x: Double, y: Double, angle: Double, length: Double, height: Double) -> TextLine {
        TextLine(
            candidates: [], polarity: .dark, centerX: x, centerY: y, angle: angle, length: length, digitHeight: height,
            candidatesAreCharacters: false, role: .value)
    }

    /// `text` read as a line of clear digits.
    func read(_ text: String, height: Double) -> RecognizedLine {
        let characters = text.enumerated().map { i, c in
            RecognizedCharacter(character: c, confidence: 0.99, segments: [], box: PixelRect(x: 10 * i, y: 0, width: 8, height: 20))
        }
        return RecognizedLine(
            characters: characters, confidence: 0.99, digitHeight: height, polarity: .dark, corners: nil, contrast: 100,
            hasGap: false)
    }

    /// A BP monitor's diastolic row, 110 px long and 44 high, read at a 25-degree slant around (600, 440): its
    /// upright bounding box reaches from y 394 to 486 and x 530 to 670.
    let slantedRow: TextLine

    init() {
        slantedRow = TextLine(
            candidates: [], polarity: .dark, centerX: 600, centerY: 440, angle: 25 * Double.pi / 180, length: 110,
            digitHeight: 44, candidatesAreCharacters: false, role: .value)
    }

    @Test func aRowUnderASlantedRowIsReadThoughItLiesInThatRowsUprightBox() {
        var selection = LineSelection()
        selection.add(read("64", height: 44), located: slantedRow)
        // The pulse row below-left: 33 px digits, its box 60 x 33 from (541, 452), most of it inside the slanted
        // row's upright box (541...659 by 397...483) but only its top-right corner inside the row itself.
        let pulse = detected(x: 571, y: 469, angle: 0, length: 60, height: 33)
        #expect(slantedRow.boundingBox.intersection(pulse.boundingBox).area * 2 > pulse.boundingBox.area)
        #expect(!selection.isPiece(pulse))
    }

    @Test func aSmallLineInsideASlantedRowIsAPieceOfIt() {
        var selection = LineSelection()
        selection.add(read("64", height: 44), located: slantedRow)
        // A 30 px line along the row's middle: one digit's lower half read as a line of its own.
        let half = detected(x: 610, y: 445, angle: 25 * Double.pi / 180, length: 40, height: 20)
        #expect(selection.isPiece(half))
        // As tall as the row: a line of its own wherever it lies.
        let tall = detected(x: 610, y: 445, angle: 25 * Double.pi / 180, length: 40, height: 40)
        #expect(!selection.isPiece(tall))
    }

    @Test func aLineOfCharacterBoxesClaimsItsBoxes() {
        var selection = LineSelection()
        let candidates = [0, 30, 60].map { x in
            CharacterCandidate(box: PixelRect(x: 100 + x, y: 100, width: 24, height: 40), fill: 0.5, polarity: .dark, level: 0)
        }
        let row = TextLine(
            candidates: candidates, polarity: .dark, centerX: 142, centerY: 120, angle: 0, length: 84, digitHeight: 40)
        selection.add(read("120", height: 40), located: row)
        let inside = detected(x: 140, y: 125, angle: 0, length: 40, height: 20)
        let below = detected(x: 140, y: 160, angle: 0, length: 40, height: 20)
        #expect(selection.isPiece(inside))
        #expect(!selection.isPiece(below))
    }
}
