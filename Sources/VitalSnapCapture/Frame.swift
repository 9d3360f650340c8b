import VitalSnapImaging

/// One grey frame from a camera or a replayed file, with when it was taken.
public struct Frame: Sendable {
    public var image: GrayImage
    /// Seconds since the source started (monotonic), for convergence timing.
    public var timestamp: Double
    /// Position in the source's sequence, from 1; a gap means frames were dropped.
    public var sequence: Int

    public init(image: GrayImage, timestamp: Double, sequence: Int) {
        self.image = image
        self.timestamp = timestamp
        self.sequence = sequence
    }
}
