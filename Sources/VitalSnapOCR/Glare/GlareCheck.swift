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
            let cell = Int(configuration.neighbourCellWidth * line.digitHeight)
            // Beside the number as located where the locator knew its ends (a trained recognizer's character
            // boxes are narrow spikes on the digits), else beside the characters read: before and after it along
            // its reading direction, which is up or down the image in a sideways photo.
            // Worked out as for a line across the image, in a frame with x and y swapped where it reads up or down.
            let upOrDown = line.corners.map(Self.readsUpOrDown) ?? false
            let read = line.boundingBox.transposed(upOrDown)
            var box = read
            if let located = line.locatedBox?.transposed(upOrDown) {
                // Its ends only: the cells keep the characters' rows.
                box = read.union(located)
                box.y = read.y
                box.height = read.height
            }
            nearbyBoxes.append(PixelRect(x: box.minX - cell, y: box.minY, width: cell, height: box.height).transposed(upOrDown))
            nearbyBoxes.append(PixelRect(x: box.maxX, y: box.minY, width: cell, height: box.height).transposed(upOrDown))
        }
        let margin = Int(first.digitHeight * configuration.displayMargin)
        let cell = Int(configuration.neighbourCellWidth * first.digitHeight)
        // The display reaches a cell beyond the number's ends: above and below it where it reads up or down.
        let sideways = first.corners.map(Self.readsUpOrDown) ?? false
        let display = union.transposed(sideways).insetBy(dx: -margin - cell, dy: -margin).transposed(sideways)
        // The digits' height across their lines, which a sideways line's character boxes do not give.
        let digitHeight = Int(reading.digitHeight)
        let report = detector.detect(
            in: image, display: display, digits: digitBoxes, nearby: nearbyBoxes, polarity: first.polarity,
            digitHeight: digitHeight, linesReadUpOrDown: sideways)
        // A line cut from a crop of the display has no rows of the display above and below its digits to tell
        // its polarity against, and a bright end of the window makes dark digits look light; taken the wrong
        // way, the display's own bright background becomes glare (an orange electricity meter's, refused).
        // There glare must be found over the digits with the other polarity too.
        guard report.coversDigits, !first.polarityIsSure else { return report }
        let other = detector.detect(
            in: image, display: display, digits: digitBoxes, nearby: nearbyBoxes,
            polarity: first.polarity == .dark ? .light : .dark, digitHeight: digitHeight, linesReadUpOrDown: sideways)
        if other.coversDigits { return report }
        var unsure = report
        unsure.coversDigits = false
        return unsure
    }

    /// Whether a line's reading direction is closer to vertical than to horizontal: a sideways photo's line.
    /// (Where it is, the check's boxes are worked out with x and y swapped: `PixelRect.transposed`.)
    static func readsUpOrDown(_ quad: LineQuad) -> Bool {
        abs(quad.topRight.y - quad.topLeft.y) > abs(quad.topRight.x - quad.topLeft.x)
    }
}

extension PixelRect {
    /// This rectangle with x and y swapped where `swapped` (a mirror about the diagonal: done twice, the same
    /// rectangle), as it is otherwise.
    fileprivate func transposed(_ swapped: Bool) -> PixelRect {
        swapped ? PixelRect(x: y, y: x, width: height, height: width) : self
    }
}
