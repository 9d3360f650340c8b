import VitalSnapImaging

/// Which way up a whole photo is: the stage before line finding that stands a turned photo upright. A trained
/// line locator finds lines in any orientation but cannot tell a seven-segment line from the same line upside
/// down (0 1 2 5 8 look alike either way, 6 and 9 swap), so the photo as a whole decides: where the clock, the
/// unit and the decimal point lie, how the device's text and buttons stand.
public protocol PhotoOrienter: Sendable {
    /// How `image` is turned, or nil when the orienter cannot tell (the photo is then read as it is).
    mutating func orientation(of image: GrayImage) -> OrientationEstimate?
    /// How `image` is turned by a quarter turn, where the orienter is not sure enough for `orientation(of:)` but
    /// sure enough that it is sideways to try reading it turned when it gives nothing as it is (nil: never).
    mutating func sidewaysGuess(for image: GrayImage) -> OrientationEstimate?
}

extension PhotoOrienter {
    public mutating func sidewaysGuess(for image: GrayImage) -> OrientationEstimate? { nil }
}

/// How a photo is turned from upright, and how sure the orienter is of that.
public struct OrientationEstimate: Sendable, Equatable {
    /// Quarter turns clockwise from upright (0 to 3): turning the photo counter-clockwise as often stands it up.
    public var clockwiseTurns: Int
    /// The orienter's probability for that turn (0 to 1).
    public var confidence: Double

    public init(clockwiseTurns: Int, confidence: Double) {
        self.clockwiseTurns = ((clockwiseTurns % 4) + 4) % 4
        self.confidence = confidence
    }

    /// The EXIF orientation whose transform stands the photo upright (`.up` when it already is).
    public var uprightingOrientation: ExifOrientation {
        switch clockwiseTurns {
        case 1: .left      // turned a quarter clockwise: turn it back counter-clockwise
        case 2: .down
        case 3: .right
        default: .up
        }
    }
}
