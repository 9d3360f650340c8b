/// An orienter's probability for each way a photo may be turned: quarter turns clockwise from upright, 0 to 3.
/// Four numbers held in place, not an array: a photo read costs no allocation for them.
public struct TurnProbabilities: Sendable, Equatable {
    public var values: SIMD4<Double>

    public init(_ values: SIMD4<Double>) {
        self.values = values
    }

    /// The probability that the photo is turned `clockwiseTurns` quarter turns clockwise (any integer: taken
    /// modulo 4).
    public subscript(clockwiseTurns: Int) -> Double {
        values[((clockwiseTurns % 4) + 4) % 4]
    }
}
