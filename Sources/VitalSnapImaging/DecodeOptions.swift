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
    /// How a colour pixel becomes grey: its luma (as a grey photo of it shows it), its brightest channel, which
    /// keeps a blue or red digit on a dark screen as bright as a white one (luma makes pure blue 29 of 255), or
    /// its darkest channel, which makes a yellow, green or cyan digit on a light screen as dark as a black one
    /// (luma makes pure yellow 226 of 255). A grey file is read as it is whatever this says.
    public var grey: Grey = .luma

    public enum Grey: Sendable, Equatable {
        case luma
        case brightestChannel
        case darkestChannel
    }

    public init(
        minimumLongSide: Int? = nil,
        applyExifOrientation: Bool = true,
        maxPixels: Int = 100_000_000,
        maxDimension: Int = 30_000,
        strict: Bool = false,
        grey: Grey = .luma
    ) {
        self.minimumLongSide = minimumLongSide
        self.applyExifOrientation = applyExifOrientation
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.strict = strict
        self.grey = grey
    }
}
