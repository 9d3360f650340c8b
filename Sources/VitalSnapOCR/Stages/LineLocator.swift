import VitalSnapImaging

/// Stage 1 of reading a frame: where its text lines are.
///
/// A locator works on the frame's pyramid (level 0 is the frame at working size, each further level half the
/// one before) and returns the lines in level-0 pixels, most prominent (tallest) first. Implementations:
/// `RuleLineLocator` (character-shaped blobs chained into lines) and `ModelLineLocator` (a trained detector).
public protocol LineLocator: Sendable {
    /// Whether lines are found in any orientation (reading down, or right to left in a photo turned upside
    /// down) with their reading direction; otherwise only roughly level lines are, and a turned photo must be
    /// turned back before it is read.
    var findsAnyOrientation: Bool { get }

    /// - Parameter wholeImageIsDisplay: the frame is a crop of the display itself (a clinic's cropped photo,
    ///   the overlay window), so a line may fill it edge to edge.
    mutating func locate(in pyramid: ImagePyramid, wholeImageIsDisplay: Bool) -> [TextLine]
}
