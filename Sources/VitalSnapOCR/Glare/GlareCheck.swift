import VitalSnapImaging

/// Stage: whether glare covers the digits of a reading.
///
/// Input: the image read and its reading. Output: a `GlareReport` over that image; the reader refuses a value
/// whose digits it covers. Glare matters where it covers the characters themselves, and the cell just before
/// and after the number, where it may hide a whole digit (11.4 read as 1.4), but not the rest of the display.
/// Keeps its boxes between images.
public struct GlareCheck: Sendable {
    public struct Configuration: Sendable {
        /// The cell looked at before and after a number is this many digit heights wide: about a digit's cell.
        public var neighbourCellWidth = 0.6
        /// The display is looked at this many digit heights (of the tallest line) around the lines, besides the
        /// neighbouring cells: only just around them, since further out lies the body of the device, often
        /// white plastic.
        public var displayMargin = 0.2
        public init() {}
    }

    public var configuration: Configuration
    public var detector = GlareDetector()
    private var digitBoxes: [PixelRect] = []
    private var nearbyBoxes: [PixelRect] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public mutating func check(_ image: GrayImage, reading: Reading) -> GlareReport {
        guard let first = reading.lines.first, let union = reading.linesBox else { return .none }
        digitBoxes.removeAll(keepingCapacity: true)
        for line in reading.lines {
            for c in line.characters { digitBoxes.append(line.imageBox(of: c)) }
        }
        nearbyBoxes.removeAll(keepingCapacity: true)
        for line in reading.lines {
            // Beside the number as located where the locator knew its ends (a trained recognizer's character
            // boxes are narrow spikes on the digits), else beside the characters read.
            let read = line.boundingBox
            var box = read
            if let located = line.locatedBox {
                // Its ends only: the cells keep the characters' rows.
                box = read.union(located)
                box.y = read.y
                box.height = read.height
            }
            let cell = Int(configuration.neighbourCellWidth * line.digitHeight)
            nearbyBoxes.append(PixelRect(x: box.minX - cell, y: box.minY, width: cell, height: box.height))
            nearbyBoxes.append(PixelRect(x: box.maxX, y: box.minY, width: cell, height: box.height))
        }
        let margin = Int(first.digitHeight * configuration.displayMargin)
        let display = union.insetBy(dx: -margin - Int(configuration.neighbourCellWidth * first.digitHeight), dy: -margin)
        let report = detector.detect(
            in: image, display: display, digits: digitBoxes, nearby: nearbyBoxes, polarity: first.polarity)
        // A line cut from a crop of the display has no rows of the display above and below its digits to tell
        // its polarity against, and a bright end of the window makes dark digits look light; taken the wrong
        // way, the display's own bright background becomes glare (an orange electricity meter's, refused).
        // There glare must be found over the digits with the other polarity too.
        guard report.coversDigits, !first.polarityIsSure else { return report }
        let other = detector.detect(
            in: image, display: display, digits: digitBoxes, nearby: nearbyBoxes,
            polarity: first.polarity == .dark ? .light : .dark)
        if other.coversDigits { return report }
        var unsure = report
        unsure.coversDigits = false
        return unsure
    }
}
