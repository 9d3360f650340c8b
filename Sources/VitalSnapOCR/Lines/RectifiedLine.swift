import VitalSnapImaging

/// One text line resampled upright, digits `digitHeight` pixels tall starting at row `digitTop`: for the rule-based
/// recognizer dark ink on a light background with italic slant removed, for the trained one the crop it was
/// trained on (`LineCropper`). Everything after this works on the same small, normalized picture
/// whatever the camera, distance, tilt or polarity of the display.
public struct RectifiedLine: Sendable {
    public var image = GrayImage(width: 0, height: 0)
    public var digitTop = 0
    public var digitHeight = 0
    /// Horizontal shift per pixel of height that was removed (positive: the display's digits lean right).
    public var shear: Double = 0
    /// Maps a pixel of `image` to full-frame (working image) coordinates.
    public var toFrame = AffineMap.identity
    /// The frame (working image) `toFrame` maps into: beyond it there is nothing more to see.
    public var frameBounds = PixelRect.zero
    /// The candidates' horizontal extents in `image` columns, from the detection step.
    public var candidateSpans: [ClosedRange<Int>] = []
    /// The ink's polarity where the rectifier worked it out from the pixels (nil: the located line's).
    public var polarity: InkPolarity?
    /// Whether `polarity` was told against the display around the characters; false where only the
    /// characters' own band could tell it (a line filling a crop of the display), which a bright end of the
    /// window can mislead.
    public var polarityIsSure = true

    public init() {}

    public var digitBottom: Int { digitTop + digitHeight }

    /// The digit height in frame pixels (the refined one, not the detector's guess).
    public var frameDigitHeight: Double { Double(digitHeight) * (toFrame.a * toFrame.a + toFrame.c * toFrame.c).squareRoot() }
}
