import VitalSnapImaging

/// The per-frame controller of a live reading: reads each frame, feeds the converger, and keeps the crop of the
/// display from the latest frame that showed the value being converged on.
///
/// Once a frame has given a value, the following frames are read only around where it was (the display barely
/// moves between frames), which costs a fraction of reading the whole frame. The whole frame is read again when
/// the region gives nothing, when what it gives touches its edge (a digit may be cut off), and every
/// `fullFrameInterval` frames in any case, so that a region gone stale is never trusted for long.
///
/// One per stream; its readers keep their buffers between frames.
public struct LiveReader: Sendable {
    public let peripheral: PeripheralDefinition
    private var reader: DisplayReader
    public private(set) var converger: ReadingConverger
    /// The display as the camera saw it in the latest frame that read the value now leading, and where it was.
    public private(set) var bestCrop: (image: GrayImage, region: PixelRect, glare: GlareReport, text: String)?

    /// Where the display was last read, in frame pixels; the next frame is read only there. Nil: the whole frame.
    public private(set) var trackedRegion: PixelRect?
    /// Frames read in the tracked region only, in a row, before the whole frame is read again.
    public var fullFrameInterval = 8
    private var regionReads = 0
    private var regionImage = GrayImage(width: 0, height: 0)

    public init(peripheral: PeripheralDefinition, unit: String?, policy: ConvergencePolicy = .default, reader choice: ReaderChoice) {
        self.peripheral = peripheral
        // A camera's frames are read as they stand: the person holding the device sees them the right way up.
        var configuration = DisplayReader.Configuration()
        configuration.standsPhotosUpright = false
        configuration.asksSecondOpinion = false
        configuration.usesPhotoLocator = false
        reader = DisplayReader(peripheral: peripheral, unit: unit, reader: choice, configuration: configuration)
        converger = ReadingConverger(policy: policy, peripheral: peripheral)
    }

    /// A live reader with the default reader, the trained one (`ReaderChoice.preferred()`), as `vitalsnap read` uses.
    public init(peripheral: PeripheralDefinition, unit: String?, policy: ConvergencePolicy = .default) throws(ReaderModelError) {
        self.init(peripheral: peripheral, unit: unit, policy: policy, reader: try ReaderChoice.preferred())
    }

    /// What one frame gave: the converger's update and that frame's own result.
    public struct Step: Sendable {
        public var update: ConvergenceUpdate
        /// The frame's own result; where only the tracked region was read, in that region's pixels.
        public var frameResult: PhotoResult
        /// Where the region read lies in the frame (nil: the whole frame was read).
        public var regionOrigin: (x: Int, y: Int)?

        /// The frame's glare in the whole frame's pixels. Computed when asked (the capture view asks), so that
        /// reading a frame allocates nothing for it.
        public var glareInFrame: GlareReport {
            var glare = frameResult.glare ?? .none
            if let origin = regionOrigin {
                glare.regions = glare.regions.map { $0.offsetBy(dx: origin.x, dy: origin.y) }
            }
            return glare
        }
    }

    /// Reads one frame and feeds the converger; throws where a stage of the reader cannot run.
    public mutating func process(_ image: GrayImage, timestamp: Double) throws(ReaderStageError) -> Step {
        let (result, origin) = try read(image)
        let reading = result.reading ?? Reading(outcome: .none(.noDigitsFound), confidence: 0, recognizedText: "", lines: [])
        let glare = result.glare ?? .none
        let update = converger.add(reading, glare: glare, timestamp: timestamp)
        let source = origin == nil ? image : regionImage
        if update.partial.status.isVote, let text = reading.readingString ?? reading.word,
            let local = Self.displayRegion(of: reading, in: source)
        {
            let region = local.offsetBy(dx: origin?.x ?? 0, dy: origin?.y ?? 0)
            // Into the last crop's storage: dropping the old tuple first leaves that storage unshared, so
            // cropping allocates nothing once it has held the largest crop.
            var crop = bestCrop?.image ?? GrayImage(width: 0, height: 0)
            bestCrop = nil
            image.crop(region, into: &crop)
            bestCrop = (crop, region, glare, text)
            trackedRegion = Self.trackingRegion(of: reading, in: source)?.offsetBy(dx: origin?.x ?? 0, dy: origin?.y ?? 0)
        } else if origin == nil {
            trackedRegion = nil
        }
        return Step(update: update, frameResult: result, regionOrigin: origin)
    }

    /// The frame's result, read in the tracked region when that can be trusted (with the region's origin), else
    /// in the whole frame (origin nil).
    private mutating func read(_ image: GrayImage) throws(ReaderStageError) -> (PhotoResult, origin: (x: Int, y: Int)?) {
        // A frame larger than the reader's working size is shrunk before reading, a region of it would not be:
        // there the region can cost more than the whole frame, so only frames read at full size are tracked.
        if let region = trackedRegion, regionReads < fullFrameInterval, max(image.width, image.height) <= Self.fullSizeLimit {
            image.crop(region, into: &regionImage)
            let result = try reader.read(image: regionImage)
            if let reading = result.reading, reading.readingString != nil || reading.word != nil,
                !Self.touchesEdge(reading, of: regionImage)
            {
                regionReads += 1
                let clipped = region.intersection(image.bounds)
                return (result, (clipped.minX, clipped.minY))
            }
        }
        regionReads = 0
        return (try reader.read(image: image), nil)
    }

    /// The longest side the line reader works on without shrinking the image first.
    static let fullSizeLimit = WorkingFrame.Configuration().workingLongSide.upperBound

    public mutating func reset() {
        converger.reset()
        bestCrop = nil
        trackedRegion = nil
        regionReads = 0
    }

    /// Where to look in the next frame: the lines read, with room around them for the display to move and for
    /// what stands beside the value (the assembler's checks look there): two digit heights, and half the lines'
    /// width sideways.
    static func trackingRegion(of reading: Reading, in image: GrayImage) -> PixelRect? {
        guard let union = reading.linesBox else { return nil }
        let digit = Int(reading.digitHeight)
        let region = union.insetBy(dx: -max(2 * digit, union.width / 2), dy: -2 * digit).intersection(image.bounds)
        return region.isEmpty ? nil : region
    }

    /// Whether a line read comes within a quarter digit of the image's edge, where a digit may have been cut off.
    static func touchesEdge(_ reading: Reading, of image: GrayImage) -> Bool {
        reading.lines.contains { line in
            let box = line.boundingBox, margin = max(2, Int(line.digitHeight / 4))
            return box.minX < margin || box.minY < margin || box.maxX > image.width - margin || box.maxY > image.height - margin
        }
    }

    /// The lines that were read, with a margin of one digit height (the display's window around them).
    static func displayRegion(of reading: Reading, in image: GrayImage) -> PixelRect? {
        guard let union = reading.linesBox else { return nil }
        let margin = Int(reading.digitHeight)
        let region = union.insetBy(dx: -margin, dy: -margin).intersection(image.bounds)
        return region.isEmpty ? nil : region
    }
}
