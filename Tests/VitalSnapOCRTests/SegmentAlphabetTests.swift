import XCTest
@testable import VitalSnapOCR

final class SegmentAlphabetTests: XCTestCase {
    /// The patterns a display lights, written out here rather than taken from the alphabet under test.
    static let digitPatterns: [(String, Character)] = [
        ("abcdef", "0"), ("bc", "1"), ("abdeg", "2"), ("abcdg", "3"), ("bcfg", "4"),
        ("acdfg", "5"), ("acdefg", "6"), ("abc", "7"), ("abcdefg", "8"), ("abcdfg", "9"),
    ]

    func testSegmentSetFromLettersAndBack() {
        XCTAssertEqual(SegmentSet("a").rawValue, 1)
        XCTAssertEqual(SegmentSet("g").rawValue, 64)
        XCTAssertEqual(SegmentSet("abcdefg").rawValue, 127)
        XCTAssertEqual(SegmentSet("gfedcba"), SegmentSet("abcdefg"))
        XCTAssertEqual(SegmentSet("bxc z"), [.b, .c])  // other letters are ignored
        XCTAssertEqual(SegmentSet(""), [])
        XCTAssertEqual(SegmentSet("gca").description, "acg")
        XCTAssertEqual(SegmentSet([.b, .f]).description, "bf")
    }

    func testEveryDigitsCanonicalPatternMapsBackToTheDigit() {
        for (pattern, digit) in Self.digitPatterns {
            XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet(pattern)), digit, pattern)
            XCTAssertEqual(SegmentAlphabet.segments(for: digit), SegmentSet(pattern), String(digit))
            XCTAssertTrue(SegmentAlphabet.isDigit(digit))
        }
    }

    func testDigitVariantsMetersUse() {
        XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet("cdefg")), "6")  // 6 without its top bar
        XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet("abcf")), "7")  // 7 with f
        // The canonical pattern is the full one, not the variant.
        XCTAssertEqual(SegmentAlphabet.segments(for: "6"), SegmentSet("acdefg"))
        XCTAssertEqual(SegmentAlphabet.segments(for: "7"), SegmentSet("abc"))
        XCTAssertEqual(SegmentAlphabet.segments(for: "9"), SegmentSet("abcdfg"))
    }

    func testANineWithoutItsBottomBarIsNotReadOnPurpose() {
        // Left out deliberately (see `SegmentAlphabet`): it is a 4 with one stray segment (a).
        XCTAssertNil(SegmentAlphabet.character(for: SegmentSet("abcfg")))
        XCTAssertEqual(SegmentSet("abcfg").subtracting(.a), SegmentSet("bcfg"))
    }

    func testLettersAndSigns() {
        XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet("def")), "L")
        XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet("bcefg")), "H")
        XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet("adefg")), "E")
        XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet("eg")), "r")
        XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet("cdeg")), "o")
        XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet("g")), "-")
        XCTAssertEqual(SegmentAlphabet.character(for: SegmentSet("ef")), "I")
        for letter: Character in ["L", "H", "E", "r", "o", "-", "I"] { XCTAssertFalse(SegmentAlphabet.isDigit(letter)) }
        // An O is drawn like a 0.
        XCTAssertEqual(SegmentAlphabet.segments(for: "O"), SegmentSet("abcdef"))
        XCTAssertNil(SegmentAlphabet.segments(for: "Q"))
    }

    func testUnknownPatternsAreNotGuessed() {
        // An 8 missing c, a 0 missing a, a lone vertical, the top bar alone, nothing lit, an 8 missing d,
        // the top and bottom bars, a 0 missing f, a 9 missing d.
        for pattern in ["abdefg", "bcdef", "b", "a", "", "abcefg", "ad", "abcde", "abcfg"] {
            XCTAssertNil(SegmentAlphabet.character(for: SegmentSet(pattern)), pattern)
        }
        // Of the 128 patterns, only the listed ones are known.
        var known = 0
        for raw in UInt8(0)..<128 where SegmentAlphabet.character(for: SegmentSet(rawValue: raw)) != nil { known += 1 }
        // 10 digits + 2 digit variants (6, 7) + minus + L H E r o I.
        XCTAssertEqual(known, 19)
    }

    func testRotatedHalfATurn() {
        XCTAssertEqual(SegmentSet("a").rotated180, SegmentSet("d"))
        XCTAssertEqual(SegmentSet("bf").rotated180, SegmentSet("ce"))
        XCTAssertEqual(SegmentSet("g").rotated180, SegmentSet("g"))
        func upsideDown(_ c: Character) -> Character? {
            SegmentAlphabet.segments(for: c).flatMap { SegmentAlphabet.character(for: $0.rotated180) }
        }
        XCTAssertEqual(upsideDown("6"), "9")
        XCTAssertEqual(upsideDown("9"), "6")
        XCTAssertEqual(upsideDown("2"), "2")
        XCTAssertEqual(upsideDown("5"), "5")
        XCTAssertEqual(upsideDown("0"), "0")
        XCTAssertEqual(upsideDown("8"), "8")
        XCTAssertEqual(SegmentAlphabet.segments(for: "3")?.rotated180, SegmentSet("adefg"))
        XCTAssertEqual(upsideDown("3"), "E")
        XCTAssertNil(upsideDown("4"))
        // Twice is the identity, for every pattern.
        for raw in UInt8(0)..<128 {
            XCTAssertEqual(SegmentSet(rawValue: raw).rotated180.rotated180, SegmentSet(rawValue: raw))
        }
    }
}
