import VitalSnapImaging

/// Stage 2: one located line resampled level and upright at the scale its recognizer expects.
///
/// Each recognizer has the rectifier whose output it was built for: `RuleLineRectifier` (refined angle and band,
/// italic slant removed, inverted to dark on light) for `RuleCharacterRecognizer`, `ModelLineRectifier` (the crop the
/// model was trained on) for `ModelCharacterRecognizer`.
public protocol LineRectifying: Sendable {
    mutating func rectify(_ line: TextLine, pyramid: ImagePyramid, into out: inout RectifiedLine)
}
