import VitalSnapImaging

/// The hand-made line locator: at every pyramid level, blobs shaped like seven-segment characters
/// (`CharacterCandidateFinder`), chained into lines of similar height (`LineFinder`); for a crop of the
/// display, also the bands of its row profile (`ProfileLineFinder`).
public struct RuleLineLocator: LineLocator {
    /// The thresholds of its parts; it has none of its own.
    public struct Configuration: Sendable {
        /// Blobs shaped like characters, at each pyramid level.
        public var candidates = CharacterCandidateFinder.Configuration()
        /// Candidates chained into lines.
        public var lines = LineFinder.Configuration()
        /// Bands of a display crop's row profile.
        public var profile = ProfileLineFinder.Configuration()
        public init() {}
    }

    public var configuration: Configuration
    private var finder = CharacterCandidateFinder()
    private var lineFinder = LineFinder()
    private var profileFinder = ProfileLineFinder()
    /// The character candidates of the last `locate`, for inspection.
    public private(set) var candidates: [CharacterCandidate] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public mutating func locate(in frame: WorkingFrame) -> [TextLine] {
        finder.configuration = configuration.candidates
        lineFinder.configuration = configuration.lines
        profileFinder.configuration = configuration.profile
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
