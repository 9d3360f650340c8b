/// Stage: the characters of one rectified line, each with how sure the recognizer is of it.
///
/// Input: a `RectifiedLine`. Output: a `LineTranscript`. The seam where the reader's recognition is replaced:
/// `RuleCharacterRecognizer` (seven-segment rules) and `ModelCharacterRecognizer` (a trained network) both
/// conform, and `vitalsnap eval --reader` compares them.
public protocol CharacterRecognizer: Sendable {
    mutating func recognize(_ line: RectifiedLine) throws(ReaderStageError) -> LineTranscript
    /// How sure it is that `line` reads as `read` (another crop's reading of the same line), on the scale of
    /// `LineTranscript.confidence`: the reader asks it in every view of a value line (`ViewAgreement`). With
    /// `pointsMayDrop`, that it reads as `read` or as `read` without its decimal points.
    mutating func probability(of read: LineTranscript, in line: RectifiedLine, pointsMayDrop: Bool) throws(ReaderStageError) -> Double
}

extension CharacterRecognizer {
    /// For a recognizer that can only read: its own reading's confidence where it reads the same characters
    /// (or, with `pointsMayDrop`, those without the decimal points), else 0.
    public mutating func probability(of read: LineTranscript, in line: RectifiedLine, pointsMayDrop: Bool) throws(ReaderStageError) -> Double {
        let again = try recognize(line)
        let seen = again.characters.lazy.map(\.character), text = read.characters.lazy.map(\.character)
        guard seen.elementsEqual(text) || (pointsMayDrop && seen.elementsEqual(text.filter { $0 != "." }))
        else { return 0 }
        return again.confidence
    }
}
