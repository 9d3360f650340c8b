import VitalSnapImaging

/// Stage: which way up a photo is, told from the lines found in it, so that a turned photo is found and read
/// again stood upright. A trained line locator finds lines in any orientation but cannot tell a seven-segment
/// line from the same line upside down (0 1 2 5 8 look alike either way, 6 and 9 swap), so the display around
/// them decides: where the clock, the unit and the decimal point lie, how the device's printed words stand.
///
/// Input: the working frame's image and the lines located in it. Output: an `OrientationEstimate`, or nil.
/// Implementation: `ModelPhotoOrienter`; the rule-based reader has none (its `RuleTurnSearch` reads turned photos
/// instead).
public protocol PhotoOrienter: Sendable {
    /// How `image` is turned, given the `lines` a locator found in it (in its pixels): a turn the orienter is
    /// sure of (`isSure`: the photo is read only that way), or a quarter turn it only guesses (tried when the
    /// photo gives nothing as it is); nil when it can tell neither (the photo's reading as it is stands).
    mutating func orientation(of image: GrayImage, lines: [TextLine]) throws(ReaderStageError) -> OrientationEstimate?
    /// The probability of each turn that the last `orientation(of:lines:)` worked out, whatever its thresholds
    /// made of them (nil: none, or an orienter that gives none). `TurnedErrorCodeCheck` reads it.
    var lastTurnProbabilities: TurnProbabilities? { get }
}

extension PhotoOrienter {
    /// An orienter that gives only its verdict.
    public var lastTurnProbabilities: TurnProbabilities? { nil }
}
