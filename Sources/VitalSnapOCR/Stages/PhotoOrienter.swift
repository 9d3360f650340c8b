import VitalSnapImaging

/// Which way up a photo is: the stage after line finding that has a turned photo read again stood upright. A
/// trained line locator finds lines in any orientation but cannot tell a seven-segment line from the same line
/// upside down (0 1 2 5 8 look alike either way, 6 and 9 swap), so the display around them decides: where the
/// clock, the unit and the decimal point lie, how the device's printed words stand.
public protocol PhotoOrienter: Sendable {
    /// How `image` is turned, given the `lines` a locator found in it (in its pixels): a turn the orienter is
    /// sure of (`isSure`: the photo is read only that way), or a quarter turn it only guesses (tried when the
    /// photo gives nothing as it is); nil when it can tell neither (the photo's reading as it is stands).
    mutating func orientation(of image: GrayImage, lines: [TextLine]) -> OrientationEstimate?
}
