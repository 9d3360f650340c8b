/// What glare found on a display covers: the characters being read, and which of the places beside them (the
/// cells before and after each number, as `GlareDetector.detect` was given them) a reflection spot lies over.
///
/// A value type of two words, so that finding it allocates nothing per frame: the covered places are the bits of
/// `nearby`, bit `i` for the place at index `i` (places past the 64th count as covered whenever any is).
public struct GlareCover: Sendable, Hashable {
    /// Which end of a number a place beside it lies at, along the number's reading direction.
    public enum Side: Sendable, Hashable {
        case before, after
    }

    /// Glare over the characters themselves.
    public var characters: Bool
    /// Bit `i`: a reflection spot covers the `i`-th place beside the numbers.
    public var nearby: UInt64

    public init(characters: Bool = false, nearby: UInt64 = 0) {
        self.characters = characters
        self.nearby = nearby
    }

    public static let none = GlareCover()

    /// Whether the place at `index` is covered. Past the last bit, whether any place is: a display of more than
    /// 64 places beside numbers is not one a reading trusts under glare anyway.
    public func coversPlace(_ index: Int) -> Bool {
        index < UInt64.bitWidth ? nearby & (1 << UInt64(index)) != 0 : nearby != 0
    }

    /// Whether glare covers anything the reading depends on, taking every covered place as hiding a digit.
    public var coversAnything: Bool { characters || nearby != 0 }

    mutating func cover(place index: Int) {
        nearby |= index < UInt64.bitWidth ? 1 << UInt64(index) : 1 << UInt64(UInt64.bitWidth - 1)
    }
}
