import VitalSnapImaging

/// Stage: the last look at a photo read as it stands, for one that may be turned. Phones store photos sideways
/// or upside down more often than one would think, EXIF may be missing, and many digits read as digits upside
/// down too (0 1 2 5 8, 6 and 9 swapped): a photo that gives nothing as it stands may give its value turned, and
/// one whose value may be another value turned must not be trusted.
///
/// Input: the photo's reading as it stands (`ReadPass`), what the orienter said of it (nil: nothing or no
/// orienter), the assembler that made the reading, and a way to read the photo turned. Output: the photo's
/// result. Implementations: `RuleTurnSearch` (the rule-based reader, which has no orienter: reads the photo
/// turned and compares), `SidewaysSecondChance` (the trained reader: the orienter's guessed quarter turn, tried
/// when the photo gives nothing as it stands).
public protocol TurnCheck: Sendable {
    func check(
        _ asItStands: ReadPass, estimate: OrientationEstimate?, assembler: ReadingAssembler,
        readTurned: (ExifOrientation) throws(ReaderStageError) -> ReadPass
    ) throws(ReaderStageError) -> PhotoResult
}

/// One reading of a photo in one orientation: its result, and every line read (in the frame of that
/// orientation; `result.readOrientation` says which).
public struct ReadPass: Sendable {
    public var result: PhotoResult
    public var lines: [RecognizedLine]
    /// The size of the image as given (before any turn), in the pixels it was read at.
    public var imageSize: (width: Int, height: Int)

    public init(result: PhotoResult, lines: [RecognizedLine], imageSize: (width: Int, height: Int)) {
        self.result = result
        self.lines = lines
        self.imageSize = imageSize
    }
}

extension ExifOrientation {
    /// The turn that shows a photo the other way up from this one (for the four turns without a mirror).
    var oppositeTurn: ExifOrientation {
        switch self {
        case .up: .down
        case .down: .up
        case .right: .left
        case .left: .right
        default: self
        }
    }

    /// How many quarter turns clockwise a photo read stood up by this turn was turned: the inverse of
    /// `OrientationEstimate.uprightingOrientation` (0 for the mirrored ones).
    var clockwiseTurnsStoodUp: Int {
        switch self {
        case .left: 1
        case .down: 2
        case .right: 3
        default: 0
        }
    }
}
