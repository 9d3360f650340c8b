import Foundation
import Testing
@testable import VitalSnapOCR

/// Pieces of one line the detector left apart are joined; separate lines stay separate.
struct LinePieceJoinerTests {
    /// A line of the detector's kind (no candidates), `length` long from `start` along `angle`.
    func piece(start: Double, length: Double, y: Double = 50, height: Double = 40, angle: Double = 0, role: LineRole = .value) -> TextLine {
        let mid = start + length / 2
        return TextLine(
            candidates: [], polarity: .dark, centerX: mid * cos(angle) - y * sin(angle), centerY: mid * sin(angle) + y * cos(angle),
            angle: angle, length: length, digitHeight: height, candidatesAreCharacters: false, role: role)
    }

    @Test func theOneAndTheRestOfAValueBecomeOneLine() throws {
        // `1` then `18`, half a digit height apart: one line from the 1's start to the 8's end.
        var lines = [piece(start: 64, length: 60), piece(start: 20, length: 24)]
        LinePieceJoiner().join(&lines)
        let line = try #require(lines.first)
        #expect(lines.count == 1)
        #expect(abs(line.length - 104) < 1e-9)
        #expect(abs(line.centerX - 72) < 1e-9)
        #expect(abs(line.centerY - 50) < 1e-9)
        #expect(abs(line.digitHeight - 40) < 1e-9)
    }

    @Test func aLineReadingDownIsJoinedAlongItsOwnDirection() throws {
        var lines = [piece(start: 0, length: 80, angle: .pi / 2), piece(start: 100, length: 24, angle: .pi / 2)]
        LinePieceJoiner().join(&lines)
        #expect(lines.count == 1)
        #expect(abs(try #require(lines.first).length - 124) < 1e-9)
    }

    @Test func threePiecesInARowBecomeOne() {
        // `1`, `8`, `8`, each half a digit height from the next.
        var lines = [piece(start: 0, length: 24), piece(start: 88, length: 24), piece(start: 44, length: 24)]
        LinePieceJoiner().join(&lines)
        #expect(lines.count == 1)
    }

    /// A second piece beside the first (a character from 16 to 40 along y = 50, digits 40 high, reading right), changed in one way.
    static func beside(
        centerX: Double = 70, centerY: Double = 50, height: Double = 40, angle: Double = 0, role: LineRole = .value
    ) -> TextLine {
        TextLine(
            candidates: [], polarity: .dark, centerX: centerX, centerY: centerY, angle: angle, length: 40,
            digitHeight: height, candidatesAreCharacters: false, role: role)
    }

    static let separate: [(String, TextLine)] = [
        ("a gap wider than a character", beside(centerX: 40 + 0.9 * 40 + 20)),
        ("another line below", beside(centerY: 95)),
        ("digits of another size", beside(height: 70)),
        ("another direction", beside(angle: 0.4)),
        ("the opposite direction", beside(angle: .pi)),
        ("a clock beside the value", beside(role: .auxiliary)),
    ]

    @Test(arguments: separate)
    func separateLinesStaySeparate(_ what: String, _ second: TextLine) {
        var lines = [piece(start: 16, length: 24), second]
        LinePieceJoiner().join(&lines)
        #expect(lines.count == 2, "\(what)")
    }

    @Test func twoNumbersSideBySideStaySeparateUnlessTheyAlmostTouch() {
        // `159` and `42`, half a digit height apart: two values (a `1` that far from the rest is joined above).
        var apart = [piece(start: 0, length: 70), piece(start: 90, length: 45)]
        LinePieceJoiner().join(&apart)
        #expect(apart.count == 2)
        var touching = [piece(start: 0, length: 70), piece(start: 78, length: 45)]
        LinePieceJoiner().join(&touching)
        #expect(touching.count == 1)
    }

    @Test func theSameSecondPieceIsJoinedWhenNothingIsChanged() {
        var lines = [piece(start: 16, length: 24), Self.beside()]
        LinePieceJoiner().join(&lines)
        #expect(lines.count == 1)
    }
}
