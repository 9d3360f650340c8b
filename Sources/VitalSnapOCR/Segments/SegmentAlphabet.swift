/// Which characters a seven-segment pattern shows. Digits have the variants meters use (a 6 with or without
/// its top bar, a 7 with or without f). A 9 without its bottom bar is left out on purpose: it is a 4 with one
/// stray segment, and reading a 4 as a 9 is worse than not reading it. Letters are those meters show
/// instead of a value (`LO`, `HI`, `Err`, `Lo`); they are never turned into digits. Any other pattern is
/// unknown: an unreadable digit is reported as such, not guessed.
public enum SegmentAlphabet {
    public static func character(for segments: SegmentSet) -> Character? {
        table[segments.rawValue]
    }

    public static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    /// The canonical pattern of a character, as a display draws it (first variant).
    public static func segments(for c: Character) -> SegmentSet? {
        canonical[c]
    }

    private static let patterns: [(String, Character)] = [
        ("abcdef", "0"), ("bc", "1"), ("abdeg", "2"), ("abcdg", "3"), ("bcfg", "4"),
        ("acdfg", "5"), ("acdefg", "6"), ("cdefg", "6"), ("abc", "7"), ("abcf", "7"),
        ("abcdefg", "8"), ("abcdfg", "9"),
        ("g", "-"),
        ("def", "L"), ("bcefg", "H"), ("adefg", "E"), ("eg", "r"), ("cdeg", "o"),
        ("ef", "I"),  // a 1 drawn on the left of its cell: the I of `HI` on some meters
    ]

    private static let table: [UInt8: Character] = {
        var t: [UInt8: Character] = [:]
        for (p, c) in patterns { t[SegmentSet(p).rawValue] = c }
        return t
    }()

    private static let canonical: [Character: SegmentSet] = {
        var t: [Character: SegmentSet] = [:]
        for (p, c) in patterns where t[c] == nil { t[c] = SegmentSet(p) }
        t["O"] = SegmentSet("abcdef")
        return t
    }()
}
