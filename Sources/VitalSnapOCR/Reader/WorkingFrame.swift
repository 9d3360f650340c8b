import VitalSnapImaging

/// Stage: the image brought to the size the reader works at, and halved into a pyramid.
///
/// Input: the caller's image. Output: this frame, which the locator, the orienter and the rectifier read. Large
/// photos are halved (averaging keeps thin strokes), tiny crops doubled, so the same filters work for a
/// thermometer filling the frame and for a meter across the room. Owns its buffers: one frame per reader, reused
/// from image to image, allocates nothing once it has held the largest.
public struct WorkingFrame: Sendable {
    public struct Configuration: Sendable {
        /// Images are brought to a long side within this range (pixels) before lines are looked for: large
        /// enough for the digits of a meter across the room, small enough to read a 12-megapixel photo fast.
        public var workingLongSide = 400...1600
        /// Levels of the pyramid at most (the working frame and three halvings): digits are found at the level
        /// where they are 12 to 60 pixels tall.
        public var maximumLevels = 4
        /// An image whose long side is at most this (pixels) is a crop of the display itself (a clinic's cropped
        /// photo, a field of a form, the overlay window), so a line may fill it edge to edge.
        public var displayCropLongSide = 640
        public init() {}
    }

    public var configuration: Configuration
    /// The working image (level 0) and its halvings.
    public private(set) var pyramid = ImagePyramid()
    /// Working pixels per image pixel (below 1 for a halved photo, above 1 for a doubled crop).
    public private(set) var scale: Double = 1
    /// The bounds of the image this frame was made from, in its own pixels.
    public private(set) var imageBounds = PixelRect.zero
    /// Whether that image is a crop of the display itself (`Configuration.displayCropLongSide`).
    public private(set) var isDisplayCrop = false
    private var scaled = GrayImage(width: 0, height: 0)
    private var scratch = GrayImage(width: 0, height: 0)

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The working image (empty before the first `update`).
    public var working: GrayImage { pyramid.levels.first ?? GrayImage(width: 0, height: 0) }

    /// Whether an image is a crop of the display itself under `configuration`.
    public static func isDisplayCrop(_ image: GrayImage, configuration: Configuration = .init()) -> Bool {
        max(image.width, image.height) <= configuration.displayCropLongSide
    }

    /// Makes this the frame of `image`.
    public mutating func update(from image: GrayImage) {
        imageBounds = image.bounds
        isDisplayCrop = Self.isDisplayCrop(image, configuration: configuration)
        var factor: Double = 1
        let longSide = max(image.width, image.height)
        if longSide > configuration.workingLongSide.upperBound {
            var f = 1
            while longSide / f > configuration.workingLongSide.upperBound { f *= 2 }
            factor = 1 / Double(f)
        } else if longSide < configuration.workingLongSide.lowerBound {
            var f = 1
            while longSide * f < configuration.workingLongSide.lowerBound { f *= 2 }
            factor = Double(f)
        }
        scale = factor
        if factor == 1 {
            pyramid.update(from: image, maximumLevels: configuration.maximumLevels)
        } else if factor < 1 {
            // Average down by halving so thin strokes survive.
            ImagePyramid.halve(image, into: &scaled)
            var f = factor * 2
            while f < 1 {
                ImagePyramid.halve(scaled, into: &scratch)
                swap(&scaled, &scratch)
                f *= 2
            }
            pyramid.update(from: scaled, maximumLevels: configuration.maximumLevels)
        } else {
            let w = max(1, Int(Double(image.width) * factor)), h = max(1, Int(Double(image.height) * factor))
            image.warp(.scalingPixelCentres(by: 1 / factor), width: w, height: h, into: &scaled)
            pyramid.update(from: scaled, maximumLevels: configuration.maximumLevels)
        }
    }

    /// Maps working pixels to the image's pixels (pixel centres: `(p + 0.5) / scale - 0.5`).
    public var toImage: AffineMap { .scalingPixelCentres(by: 1 / scale) }
}
