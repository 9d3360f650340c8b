/// Seeds of the training set: scene `i` of a set depends only on the set's seed and `i`, so a set comes out
/// byte-identical whatever the number of jobs and whichever scenes are made first.
public enum TrainingSeeds {
    /// The seed of scene `index` (SplitMix64's finaliser over the set seed and the index, so that neighbouring
    /// scenes' generators share nothing).
    public static func scene(_ setSeed: UInt64, index: Int) -> UInt64 {
        mix(mix(setSeed ^ 0x5EED_0F5C_E7E5_0001) ^ UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03)
    }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
