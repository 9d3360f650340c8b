/// What to decode and how much to trust the file.
public struct DecodeOptions: Sendable, Equatable {
    /// JPEG only: decode at the largest DCT reduction (1/2, 1/4, 1/8) whose long side is still at least
    /// this many pixels. Much cheaper than decoding full size and downscaling. nil = full size.
    public var minimumLongSide: Int?
    /// Rotate/mirror the pixels so they are upright as a photo viewer shows them.
    public var applyExifOrientation: Bool
    /// Refuse images whose header declares more pixels than this (checked before allocating).
    public var maxPixels: Int
    /// Refuse images whose header declares a side longer than this (checked before allocating).
    public var maxDimension: Int
    /// Turn library warnings (e.g. "Premature end of JPEG file") into errors instead of `warnings`.
    public var strict: Bool

    public init(
        minimumLongSide: Int? = nil,
        applyExifOrientation: Bool = true,
        maxPixels: Int = 100_000_000,
        maxDimension: Int = 30_000,
        strict: Bool = false
    ) {
        self.minimumLongSide = minimumLongSide
        self.applyExifOrientation = applyExifOrientation
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.strict = strict
    }
}
