import VitalSnapImaging

/// How a photo is turned from upright, and how sure the orienter is of that.
public struct OrientationEstimate: Sendable, Equatable {
    /// Quarter turns clockwise from upright (0 to 3): turning the photo counter-clockwise as often stands it up.
    public var clockwiseTurns: Int
    /// The orienter's probability for that turn (0 to 1).
    public var confidence: Double
    /// Sure enough to turn the photo outright; false for a quarter turn only guessed.
    public var isSure: Bool

    public init(clockwiseTurns: Int, confidence: Double, isSure: Bool = true) {
        self.clockwiseTurns = ((clockwiseTurns % 4) + 4) % 4
        self.confidence = confidence
        self.isSure = isSure
    }

    /// A turn the photo is to be read stood up from before anything else: a sure one, other than upright.
    public var turnsThePhoto: Bool { isSure && clockwiseTurns != 0 }

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

extension OrientationEstimate: CustomStringConvertible {
    /// E.g. `2 quarter turns clockwise, 0.84` (`, sure` where it is).
    public var description: String {
        "\(clockwiseTurns) quarter turns clockwise, \(String(format: "%.2f", confidence))\(isSure ? ", sure" : "")"
    }
}
