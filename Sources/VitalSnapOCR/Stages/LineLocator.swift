/// Stage: where the text lines of a frame are.
///
/// Input: the frame at working size and its halvings (`WorkingFrame`). Output: the lines, in working pixels,
/// most prominent (tallest) first. The seam where line finding is replaced: `RuleLineLocator` (character-shaped
/// blobs chained into lines) and `ModelLineLocator` (a trained detector, which finds lines in any orientation
/// and gives each its role).
public protocol LineLocator: Sendable {
    mutating func locate(in frame: WorkingFrame) throws(ReaderStageError) -> [TextLine]
}
