import VitalSnapImaging

/// A blob that could be one seven-segment character (or a few touching ones), in full-image coordinates.
public struct CharacterCandidate: Sendable, Hashable {
    public var box: PixelRect
    public var fill: Double
    public var polarity: InkPolarity
    /// The pyramid level it was found at (0 = full working resolution).
    public var level: Int
}
