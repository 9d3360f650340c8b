/// The seven segments of a digit cell, named as usual:
///
///      aaa
///     f   b
///      ggg
///     e   c
///      ddd
///
/// Kept separate from the OCR module's own table on purpose: the samples are the ground truth the reader is
/// measured against, so they must not share its code.
public struct GlyphSegments: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let a = GlyphSegments(rawValue: 1 << 0)
    public static let b = GlyphSegments(rawValue: 1 << 1)
    public static let c = GlyphSegments(rawValue: 1 << 2)
    public static let d = GlyphSegments(rawValue: 1 << 3)
    public static let e = GlyphSegments(rawValue: 1 << 4)
    public static let f = GlyphSegments(rawValue: 1 << 5)
    public static let g = GlyphSegments(rawValue: 1 << 6)

    /// Every single segment, in the order a...g.
    public static let each: [GlyphSegments] = [.a, .b, .c, .d, .e, .f, .g]
    public static let all: GlyphSegments = [.a, .b, .c, .d, .e, .f, .g]

    /// "abc" -> [.a, .b, .c]; other characters are ignored.
    public init(_ letters: String) {
        var raw: UInt8 = 0
        for ch in letters {
            if let i = "abcdefg".firstIndex(of: ch) { raw |= 1 << UInt8("abcdefg".distance(from: "abcdefg".startIndex, to: i)) }
        }
        self.init(rawValue: raw)
    }

    public var description: String {
        String(zip("abcdefg", Self.each).filter { contains($0.1) }.map(\.0))
    }
}

/// How a display draws the letter I of `HI`: like a 1 (segments b and c) or on the left of its cell (e and f).
public enum LetterIStyle: String, Sendable, Hashable {
    case likeOne
    case left
}

/// The characters a meter's seven-segment cells can show.
public enum SevenSegmentFont {
    /// The characters `segments(for:)` knows.
    public static let characters: [Character] = Array("0123456789-LOHIErob ")

    /// The segments lit for a character; nil for one a seven-segment cell cannot show.
    /// A space is a blank (unlit) cell.
    public static func segments(for character: Character, letterI: LetterIStyle = .likeOne) -> GlyphSegments? {
        switch character {
        case "0", "O": GlyphSegments("abcdef")
        case "1": GlyphSegments("bc")
        case "2": GlyphSegments("abdeg")
        case "3": GlyphSegments("abcdg")
        case "4": GlyphSegments("bcfg")
        case "5": GlyphSegments("acdfg")
        case "6": GlyphSegments("acdefg")
        case "7": GlyphSegments("abc")
        case "8": GlyphSegments("abcdefg")
        case "9": GlyphSegments("abcdfg")
        case "-": GlyphSegments("g")
        case "L": GlyphSegments("def")
        case "H": GlyphSegments("bcefg")
        case "I": letterI == .likeOne ? GlyphSegments("bc") : GlyphSegments("ef")
        case "E": GlyphSegments("adefg")
        case "r": GlyphSegments("eg")
        case "o": GlyphSegments("cdeg")
        case "b": GlyphSegments("cdefg")
        case " ": GlyphSegments()
        default: nil
        }
    }
}
