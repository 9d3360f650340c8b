/// Stage 3: the characters of one rectified line, each with how sure the recognizer is of it.
///
/// The seam where the reader's recognition is replaced: `RuleCharacterRecognizer` (seven-segment rules) and
/// `ModelCharacterRecognizer` (a trained network) both conform, and `vitalsnap eval --reader` compares them.
public protocol CharacterRecognizer: Sendable {
    mutating func recognize(_ line: RectifiedLine) -> LineTranscript
    /// How sure it is that `line` reads as `read` (another crop's reading of the same line), on the scale of
    /// `LineTranscript.confidence`: `ViewAgreement` asks it in every view of a value line. With
    /// `pointsMayDrop`, that it reads as `read` or as `read` without its decimal points.
    mutating func probability(of read: LineTranscript, in line: RectifiedLine, pointsMayDrop: Bool) -> Double
    /// Whether it reads dark ink on light and light on dark alike. The rule-based recognizer reads segments of
    /// the polarity it is given, and reading the other one finds ghosts; a trained one reads either, so the
    /// polarity estimated for its lines tells nothing about whether they are the display's digits.
    var readsEitherPolarity: Bool { get }
}

extension CharacterRecognizer {
    public var readsEitherPolarity: Bool { false }

    /// For a recognizer that can only read: its own reading's confidence where it reads the same characters
    /// (or, with `pointsMayDrop`, those without the decimal points), else 0.
    public mutating func probability(of read: LineTranscript, in line: RectifiedLine, pointsMayDrop: Bool) -> Double {
        let again = recognize(line)
        let seen = again.characters.lazy.map(\.character), text = read.characters.lazy.map(\.character)
        guard seen.elementsEqual(text) || (pointsMayDrop && seen.elementsEqual(text.filter { $0 != "." }))
        else { return 0 }
        return again.confidence
    }
}
