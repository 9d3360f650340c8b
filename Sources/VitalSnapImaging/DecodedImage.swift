/// A decoded image plus what the file said about it.
public struct DecodedImage: Sendable, Equatable {
    /// 8-bit luminance, after DCT scaling and (if requested) EXIF orientation.
    public var image: GrayImage
    public var format: ImageFormat
    /// Size stored in the file, before scaling and orientation.
    public var originalWidth: Int
    public var originalHeight: Int
    /// JPEG DCT reduction actually used (1, 2, 4 or 8); always 1 for PNG.
    public var scaleDenominator: Int
    /// Orientation the file declared (`.up` when it has none), whether or not it was applied.
    public var orientation: ExifOrientation
    /// Distinct warning texts from the library (e.g. truncated or damaged data that was patched over).
    public var warnings: [String]
    /// How many warnings the library emitted in total (repeats are not kept in `warnings`).
    public var warningCount: Int
    /// The file ended before the image did (a JPEG's "Premature end of JPEG file"): what was missing is filled
    /// in grey. False for warnings that leave the image whole, such as a scan that ends early at a marker
    /// ("premature end of data segment"), which viewers show as it is.
    public var isCutShort = false

    public init(
        image: GrayImage, format: ImageFormat, originalWidth: Int, originalHeight: Int,
        scaleDenominator: Int, orientation: ExifOrientation, warnings: [String], warningCount: Int
    ) {
        self.image = image
        self.format = format
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
        self.scaleDenominator = scaleDenominator
        self.orientation = orientation
        self.warnings = warnings
        self.warningCount = warningCount
    }
}
