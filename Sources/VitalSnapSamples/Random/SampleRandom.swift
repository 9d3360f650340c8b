import Foundation

/// A small seedable random number generator (xoshiro256**, seeded through SplitMix64).
///
/// The samples must be byte-identical on every run, so nothing here may depend on the standard library's
/// random algorithms (`Int.random(in:using:)` and `shuffled(using:)` are free to change between Swift
/// releases). Every helper below is written out so the sequence only depends on the seed.
public struct SampleRandom: Sendable {
    private var s0, s1, s2, s3: UInt64

    public init(seed: UInt64) {
        // SplitMix64 spreads any seed (including 0 and small consecutive numbers) over the full state,
        // which xoshiro needs: an all-zero state would produce zeros forever.
        var sm = SplitMix64(state: seed)
        s0 = sm.next()
        s1 = sm.next()
        s2 = sm.next()
        s3 = sm.next()
    }

    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    /// A new independent generator, e.g. one per sample, so that adding a sample does not shift the others.
    public mutating func fork() -> SampleRandom { SampleRandom(seed: next()) }

    /// Uniform in 0..<1 with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// Uniform integer in the range (multiply-high; the bias is below 2^-40 for the ranges used here).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        let high = next().multipliedFullWidth(by: span).high
        return range.lowerBound + Int(high)
    }

    public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// +1 or -1.
    public mutating func sign() -> Double { chance(0.5) ? 1 : -1 }

    public mutating func pick<T>(_ items: [T]) -> T {
        precondition(!items.isEmpty, "pick from an empty list")
        return items[int(0...(items.count - 1))]
    }

    /// Standard normal deviate (Box-Muller; one of the pair is dropped to keep the state simple).
    public mutating func gaussian() -> Double {
        let u1 = max(unit(), 0x1.0p-53)
        let u2 = unit()
        return (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2)
    }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}

/// SplitMix64: used only to expand a seed into xoshiro's state.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
