import VitalSnapImaging

/// Stage: one located line resampled level and upright at the scale its recognizer expects.
///
/// Input: a `TextLine` and the frame's pyramid. Output: a `RectifiedLine` (written into the caller's, whose
/// buffers are reused from line to line). Each recognizer has the rectifier whose output it was built for:
/// `RuleLineRectifier` (refined angle and band, italic slant removed, inverted to dark on light) for
/// `RuleCharacterRecognizer`, `ModelLineRectifier` (the crop the model was trained on) for
/// `ModelCharacterRecognizer`; `ReaderStages` chooses them together.
public protocol LineRectifying: Sendable {
    mutating func rectify(_ line: TextLine, pyramid: ImagePyramid, into out: inout RectifiedLine)
}
