/// The seven segments of a digit cell, named as usual:
///
///      aaa
///     f   b
///      ggg
///     e   c
///      ddd
public struct SegmentSet: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let a = SegmentSet(rawValue: 1 << 0)
    public static let b = SegmentSet(rawValue: 1 << 1)
    public static let c = SegmentSet(rawValue: 1 << 2)
    public static let d = SegmentSet(rawValue: 1 << 3)
    public static let e = SegmentSet(rawValue: 1 << 4)
    public static let f = SegmentSet(rawValue: 1 << 5)
    public static let g = SegmentSet(rawValue: 1 << 6)

    public static let all: [SegmentSet] = [.a, .b, .c, .d, .e, .f, .g]
    public static let names: [Character] = ["a", "b", "c", "d", "e", "f", "g"]

    public init(_ letters: String) {
        var raw: UInt8 = 0
        for ch in letters {
            if let i = Self.names.firstIndex(of: ch) { raw |= 1 << UInt8(i) }
        }
        self.init(rawValue: raw)
    }

    public var description: String {
        String(Self.names.enumerated().filter { rawValue & (1 << UInt8($0.offset)) != 0 }.map(\.element))
    }

    /// The same pattern seen upside down (the photo rotated by 180 degrees): a<->d, b<->e, c<->f.
    public var rotated180: SegmentSet {
        let swaps: [(SegmentSet, SegmentSet)] = [(.a, .d), (.b, .e), (.c, .f), (.d, .a), (.e, .b), (.f, .c), (.g, .g)]
        var out: SegmentSet = []
        for (from, to) in swaps where contains(from) { out.insert(to) }
        return out
    }
}
