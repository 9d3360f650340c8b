import VitalSnapImaging

/// The last look at a photo of a device with two values or more that found only some of them (or doubted
/// one): the part of the photo around the lines it found, read as a photo of its own (`DisplayReader.readCrop`).
/// A display that fills little of the frame (an oximeter on a table, a BP monitor held at arm's length) shows
/// its smaller rows a few pixels tall: the detector, given the frame at its input size, finds the largest row
/// and misses the others; the crop, brought to the reader's working size, shows them large enough to be found.
///
/// Measured on the generated medical families (1,200 scenes at each of seeds 900001 and 900002; issue 41):
/// 1,153 / 5 and 1,133 / 9 right / wrong became 1,159 / 5 and 1,136 / 9 (docs/accuracy.md); after missing
/// values alone, margins of 3 and 5 digit heights read 3 and 6 fewer than 4 (5: one more wrong). The real
/// photos' folders read the same, photo by photo.
public struct CropLook: Sendable {
    public struct Configuration: Sendable {
        /// The crop reaches this many digit heights (of the tallest line found) beyond the lines found, where a
        /// display's other rows may lie.
        public var margin = 4.0
        /// ...and is read only where it is at most this share of the photo's area (a larger one shows the
        /// display about as large as the photo did).
        public var maximumAreaShare = 0.5
        /// ...and at least this many pixels on each side.
        public var minimumSide = 16
        /// A line found that the recognizer reads as it is at least this likely (its confidence; below the
        /// reader's threshold of sure, above even odds) is one the crop's values must bear out (`bearsOut`).
        public var foundConfidence = 0.5
        public init() {}
    }

    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The refusals after which the look is asked: some values found and not all, or all found and one of them
    /// or their order in doubt (a display small in the frame shows its digits small too).
    public static let reasons: Set<Refusal.Reason> = [.valuesMissing, .unclearDigits, .unclearOrder]

    /// Whether a photo refused (`refused`) gets this look: for one of `reasons`, with lines found, read as it
    /// stands (not tilted), and not over glare.
    public static func mayAsk(after refused: PhotoResult) -> Bool {
        guard let reading = refused.reading, let reason = reading.refusal?.reason, reasons.contains(reason),
            !reading.lines.isEmpty else { return false }
        return refused.readTilt == 0 && refused.glare?.coversDigits != true
    }

    /// Whether the crop's reading (`second`) bears out what the photo read (`refused`): each of the lines it
    /// found read at `foundConfidence` or more is one of the crop's values. A sideways colour monitor's `173`
    /// (0.65, under the threshold of sure) and `86`, its pulse not found, read `74/73/86` in the crop.
    public func bearsOut(_ second: PhotoResult, refused: PhotoResult) -> Bool {
        guard let values = second.reading?.values, !values.isEmpty, let found = refused.reading?.lines else {
            return false
        }
        return found.allSatisfy { line in
            line.confidence < configuration.foundConfidence || values.contains { $0.text == line.text }
        }
    }

    /// The part of the `width` x `height` photo to read (in its pixels as given) after `refused`: the lines it
    /// found, in the frame they were read in (`PhotoResult.readOrientation`), with `margin` around them, turned
    /// back to the photo; nil where the look is not asked or the part is too large or too small.
    public func region(after refused: PhotoResult, width: Int, height: Int) -> PixelRect? {
        guard Self.mayAsk(after: refused), let reading = refused.reading, let box = reading.linesBox else { return nil }
        let turn = refused.readOrientation
        let frame = turn.swapsDimensions
            ? PixelRect(x: 0, y: 0, width: height, height: width) : PixelRect(x: 0, y: 0, width: width, height: height)
        let m = Int((configuration.margin * reading.digitHeight).rounded(.up))
        let region = box.insetBy(dx: -m, dy: -m).intersection(frame)
        guard region.width >= configuration.minimumSide, region.height >= configuration.minimumSide,
            Double(region.area) <= configuration.maximumAreaShare * Double(width * height)
        else { return nil }
        return region.turnedBack(turn, width: width, height: height)
    }
}
