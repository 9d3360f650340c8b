import VitalSnapImaging

/// One synthetic photo and what is known about it.
public struct Scene: Sendable {
    public var image: GrayImage
    /// What the display shows, as a reading string (`120/80/72`, `5.6`, `LO`).
    public var reading: String
    /// What a correct reader reports: `reading`, or `?` when glare hides digit segments.
    public var expectedReading: String
    /// The display window's corners in `image` coordinates (in the display's own order: its top-left first,
    /// even when the photo is rotated).
    public var displayQuad: QuadCorners
    /// The effects applied (`blur=1.2`, `glare-over-digits=no`, `rotation=90`, ...).
    public var notes: [String]
    public var parameters: SceneParameters
}
