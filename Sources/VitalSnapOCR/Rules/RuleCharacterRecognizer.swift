import Logging
import VitalSnapImaging

/// Reads the characters of a rectified line: separates ink from background, groups the ink into character
/// cells, and decides for each cell which of the seven segments are lit by probing where each segment must be.
///
/// Segments are judged on how dark they are compared with the line's lit strokes, not on the binary mask: the
/// faint "ghosts" of unlit LCD segments are darker than the background too, and a mask that lets them in would
/// turn every 4 into a 9.
///
/// Every threshold is a field of `configuration`. The steps live in extensions, one concern a file: cells
/// (`+Cells`), segments (`+Segments`), the pitch (`+Pitch`), the number's extent (`+Trimming`) and decimal
/// points (`+DecimalPoints`).
public struct RuleCharacterRecognizer: CharacterRecognizer {
    public var configuration: Configuration
    /// A value is only read from a line whose every character is at least this clear: the default
    /// configuration's `minimumReadingConfidence`.
    public static var minimumReadingConfidence: Double { Configuration().minimumReadingConfidence }

    /// Each decision is traced at level `trace` (`vitalsnap inspect --verbose`).
    let logger = Logger(label: "vitalsnap.ocr")
    /// The binarized line of the last `recognize` (for inspection).
    public private(set) var mask = InkMask(width: 0, height: 0)
    var separator = InkSeparator()
    private var runScratch = InkMask(width: 0, height: 0)
    private var labeler = ConnectedComponents()
    /// Scratch for `darknessScore`.
    var along: [Int] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public mutating func recognize(_ line: RectifiedLine) -> LineTranscript {
        let image = line.image
        let H = line.digitHeight, Hd = Double(line.digitHeight)
        let top = line.digitTop, bottom = line.digitBottom
        let band = PixelRect(x: 0, y: top, width: image.width, height: H)
        let strokeRadius = max(configuration.ink.minimumStrokeRadius, H / configuration.ink.strokeRadiusDivisor)
        guard separator.separate(image, strokeRadius: strokeRadius, thresholdRegion: band, into: &mask) != nil else {
            return .empty
        }
        let bandHistogram = Histogram(image, in: band)
        // Measured as both recognizers measure it (the trained one reports the same).
        let contrast = LineTranscript.contrast(of: bandHistogram)
        // Flat runs longer than a segment are bezel edges or printed lines touching the digits. (Vertical
        // edges are left whole: cut up, their pieces would pass for `1`s; whole, they are too tall to be one.)
        LongRunRemoval(maximumHorizontal: Int(configuration.ink.longestFlatRun * Hd), maximumVertical: Int.max, margin: 0)
            .apply(&mask, scratch: &runScratch)
        let allComponents = labeler.label(mask, minimumArea: configuration.ink.minimumComponentArea)
        let reach = H / configuration.cells.bandReachDivisor
        let components = allComponents.filter { c in
            // Ink that reaches into the digit band, and is not a frame or shadow taller than the digits, nor a
            // long flat bar that would join the digits it passes over into one cell.
            // (Well into it: where lines are packed, the foot of the line above reaches into the band's edge.)
            c.box.maxY > top + reach && c.box.minY < bottom - reach
                && Double(c.box.height) < configuration.cells.maximumHeight * Hd
                && !(Double(c.box.width) > configuration.cells.barMinimumWidth * Hd
                    && Double(c.box.height) < configuration.cells.barMaximumHeight * Hd)
        }
        // Dots, set aside so they do not merge into a digit. (From all components: a small point sits on the
        // baseline, below the band's inner rows.)
        let dots = allComponents.filter { isDot($0, bottom: bottom, height: Hd) }
        let cells = Self.groupByColumns(components.filter { !isDot($0, bottom: bottom, height: Hd) }, height: H, configuration.cells)
            .map { detachingFrame($0, top: top, height: H) }
            .flatMap { splitOffTouchingOne($0, height: H) }

        // Typical width of a full character, for telling a `1` from a digit and for the pitch.
        let wide = cells.filter {
            Double($0.height) >= configuration.cells.fullHeight * Hd
                && Double($0.width) >= configuration.cells.fullCharacterMinimumWidth * Hd
        }.map(\.width).sorted()
        let typicalWidth = wide.isEmpty ? configuration.cells.typicalWidthFallback * Hd : Double(wide[wide.count / 2])
        let stroke = Self.strokeWidth(mask, cells: cells, top: top, height: H, configuration.cells)
        let lineLit = litLevel(in: band, fraction: configuration.ink.lineLitPercentile)

        var characters: [RecognizedCharacter] = []
        for cell in cells {
            // Judge each cell against its own strokes where they are fainter than the line's (glare washes out
            // part of a display), but never against less than most of the line's level: a cell of nothing
            // but ghost segments must not read as an 8.
            let lit = max(litLevel(in: cell, fraction: configuration.ink.cellLitPercentile), configuration.ink.cellLitFloor * lineLit)
            if let c = classify(cell, typicalWidth: typicalWidth, stroke: stroke, lit: lit, top: top, height: H) {
                characters.append(c)
            }
        }
        let framed = withoutWindowFrame(characters, band: band, stroke: stroke)
        characters = framed.characters
        characters = rereadOnPitch(characters, stroke: stroke, lineLit: lineLit, height: H)
        logger.trace("""
            cells \(cells.map(\.description)) stroke \(stroke) typical \(typicalWidth) lit \(lineLit); \
            chars \(characters.map { "\($0.character)\($0.segments) \($0.box) al=\($0.isAligned)" }); \
            spans \(line.candidateSpans); dots \(dots.map { "\($0.box) fill \(String(format: "%.2f", $0.fill))" })
            """)
        // Keep only the number around the detected candidates: things beside it (unit labels, icons, bezel
        // edges) were picked up by looking past the candidates and are not part of it.
        let trimmed = Self.trimToCandidates(
            characters, spans: line.candidateSpans, typicalWidth: typicalWidth, configuration: configuration)
        // A point is printed as dark as the segments; specks of noise on the baseline are not.
        let darkDots = dots.filter {
            litLevel(in: $0.box, fraction: configuration.points.darknessPercentile) >= configuration.points.minimumDarkness * lineLit
        }
        characters = insertingDecimalPoints(into: trimmed.characters, dots: darkDots, stroke: stroke, bottom: bottom)

        let hasGap = trimmed.unclearNeighbour || framed.doubtful || !Self.isRegular(characters, configuration.pitch)
            || somethingInNextCell(of: characters, band: band, lit: lineLit, typicalWidth: typicalWidth, line: line)
        return LineTranscript(characters: characters, contrast: contrast, hasGap: hasGap, noise: strayInk(around: characters, band: band))
    }
}
