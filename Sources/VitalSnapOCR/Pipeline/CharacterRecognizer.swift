/// Stage 3: the characters of one rectified line, each with how sure the recognizer is of it.
///
/// The seam where the reader's recognition is replaced: `LineRecognizer` (seven-segment rules) and
/// `ModelCharacterRecognizer` (a trained network) both conform, and `vitalsnap eval --reader` compares them.
public protocol CharacterRecognizer: Sendable {
    mutating func recognize(_ line: RectifiedLine) -> LineRecognition
}
