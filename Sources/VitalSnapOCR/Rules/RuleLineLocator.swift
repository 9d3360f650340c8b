import VitalSnapImaging

/// The hand-made line locator: at every pyramid level, blobs shaped like seven-segment characters
/// (`CharacterCandidateFinder`), chained into lines of similar height (`LineFinder`); for a crop of the
/// display, also the bands of its row profile (`ProfileLineFinder`).
public struct RuleLineLocator: LineLocator {
    private var finder = CharacterCandidateFinder()
    private var lineFinder = LineFinder()
    private var profileFinder = ProfileLineFinder()
    /// The character candidates of the last `locate`, for inspection.
    public private(set) var candidates: [CharacterCandidate] = []

    public init() {}

    public mutating func locate(in frame: WorkingFrame) -> [TextLine] {
        let pyramid = frame.pyramid
        candidates.removeAll(keepingCapacity: true)
        for (level, image) in pyramid.levels.enumerated() {
            finder.find(in: image, level: level, scale: 1 << level, into: &candidates)
        }
        var lines = lineFinder.lines(from: candidates)
        if frame.isDisplayCrop, let working = pyramid.levels.first {
            lines += profileFinder.lines(in: working)
            lines.sort { $0.digitHeight > $1.digitHeight }
        }
        return lines
    }
}
