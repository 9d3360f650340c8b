import VitalSnapImaging

/// A look at a thresholded image of a plain numeric display (`numericDisplay`) still refused after its tilted
/// looks: the image read once more with the holes in its strokes filled, over a square window sized to the digits
/// the first look saw. A crop thresholded to black and white (a BP field cut out of a photo and binarized, as
/// ssocr's users prepare them) has holes and speckle in its strokes where the threshold cut through a segment's
/// shading, which is what a morphological closing is for (ssocr's `closing`). Light ink is filled with a
/// grey-level closing (`GrayMorphology.closing`: a maximum, then a minimum), dark ink with an opening (a minimum,
/// then a maximum): either takes out specks of background inside and between strokes narrower than the window and
/// never takes ink away, so a `1`'s thin stroke and a decimal point stay (the other way round, taking specks of
/// ink out, the same windows read a fuel pump's `108.01` as `08.01`).
///
/// Only for a thresholded image (`isThresholded`): in a grey photo the same looks (measured 2026-12-07 on both
/// halves of the numeric folders, issue 41) read 5 fuel pumps and 4 electricity meters more right but 4 wrong (a
/// bezel edge filled into a leading `1`, `1223.01`; a `298.5` under glare read `2985`; a `kWh`'s `h` read as a
/// last digit), where the thresholded BP fields read 3 more right and none wrong.
///
/// Filling may as well join a `7`'s strokes into a `0` (a BP field's `167` read `160`, sure) or make a misread
/// surer, so a reading is taken only where two of the looks read the same text sure, and not where that text is
/// one the refused reading doubted (`ContrastLook.doubted`: the same pixels, cleaner, read the same text surer,
/// which settles nothing; BP fields upside down read `69` for 64 and `06` for 97 so) —
/// `DisplayReader.readWithStrokesFilled`. Not asked where the first look saw no digits: the window then has no
/// size to take, and a whole photo's digits may be any size.
public struct StrokeLook: Sendable, Equatable {
    /// The window's radius over the height of the digits the first look saw; a radius under one pixel is no look.
    public let radiusPerDigitHeight: Double

    public init(radiusPerDigitHeight: Double) {
        self.radiusPerDigitHeight = radiusPerDigitHeight
    }

    /// The grey levels at or below which, and at or above which, a pixel counts as black or white.
    public static let thresholdedLevels = (black: UInt8(48), white: UInt8(207))
    /// The share of an image's pixels black or white at which it is a thresholded image: 0.90 to 0.98 of a BP
    /// field's binarized JPEG (its compression blurs the edges), at most 0.81 of the other photo folders' and the
    /// samples' grey photos.
    public static let thresholdedShare = 0.85
    /// The share of its pixels each of black and white takes at least in a thresholded image: a dark photo, all
    /// of it black, is not one.
    public static let thresholdedEachShare = 0.02

    /// Whether `image` is thresholded to black and white (`thresholdedShare`, `thresholdedEachShare`).
    static func isThresholded(_ image: GrayImage) -> Bool {
        let levels = thresholdedLevels
        var (black, white) = (0, 0)
        for p in image.pixels {
            if p <= levels.black { black += 1 } else if p >= levels.white { white += 1 }
        }
        let count = Double(image.pixels.count)
        return count > 0 && Double(black + white) >= thresholdedShare * count
            && Double(min(black, white)) >= thresholdedEachShare * count
    }

    /// The window's radius in pixels for digits `digitHeight` pixels tall (0: not asked).
    func radius(digitHeight: Double) -> Int {
        max(0, Int((digitHeight * radiusPerDigitHeight).rounded()))
    }

    /// The buffers a look writes, kept between images.
    struct Buffers: Sendable {
        var filled = GrayImage(width: 0, height: 0)
        var scratch = GrayImage(width: 0, height: 0)
        var workspace = GrayMorphology.Workspace()
    }

    /// `image`, whose digits are `ink`, with its strokes' holes filled at `radius`, into `buffers.filled`.
    func fill(_ image: GrayImage, ink: InkPolarity, radius: Int, into buffers: inout Buffers) {
        if ink == .light {
            GrayMorphology.closing(image, radius: radius, into: &buffers.filled, scratch: &buffers.scratch, workspace: &buffers.workspace)
        } else {
            GrayMorphology.opening(image, radius: radius, into: &buffers.filled, scratch: &buffers.scratch, workspace: &buffers.workspace)
        }
    }
}
