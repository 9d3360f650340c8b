import VitalSnapImaging

/// The per-frame controller of a live reading: reads each frame, feeds the converger, and keeps the crop of the
/// display from the latest frame that showed the value being converged on.
///
/// One per stream; its readers keep their buffers between frames.
public struct LiveReader: Sendable {
    public let peripheral: PeripheralDefinition
    private var reader: PhotoReader
    public private(set) var converger: ReadingConverger
    /// The display as the camera saw it in the latest frame that read the value now leading, and where it was.
    public private(set) var bestCrop: (image: GrayImage, region: PixelRect, glare: GlareReport, text: String)?

    public init(peripheral: PeripheralDefinition, unit: String?, policy: ConvergencePolicy = .default) {
        self.peripheral = peripheral
        reader = PhotoReader(peripheral: peripheral, unit: unit)
        converger = ReadingConverger(policy: policy, peripheral: peripheral)
    }

    /// What one frame gave: the converger's update and that frame's own result.
    public struct Step: Sendable {
        public var update: ConvergenceUpdate
        public var frameResult: PhotoResult
    }

    public mutating func process(_ image: GrayImage, timestamp: Double) -> Step {
        let (result, _) = reader.readOriented(image)
        let reading = result.reading ?? Reading(outcome: .none("no digits found"), confidence: 0, recognizedText: "", lines: [])
        let glare = result.glare ?? .none
        let update = converger.add(reading, glare: glare, timestamp: timestamp)
        if let text = reading.readingString ?? reading.word, update.partial.status.isVote, let region = Self.displayRegion(of: reading, in: image) {
            bestCrop = (image.cropped(to: region), region, glare, text)
        }
        return Step(update: update, frameResult: result)
    }

    public mutating func reset() {
        converger.reset()
        bestCrop = nil
    }

    /// The lines that were read, with a margin of one digit height (the display's window around them).
    static func displayRegion(of reading: Reading, in image: GrayImage) -> PixelRect? {
        guard let first = reading.lines.first else { return nil }
        let union = reading.lines.dropFirst().reduce(first.boundingBox) { $0.union($1.boundingBox) }
        let margin = Int(reading.lines.map(\.digitHeight).max() ?? 0)
        let region = union.insetBy(dx: -margin, dy: -margin).intersection(image.bounds)
        return region.isEmpty ? nil : region
    }
}
