/// On what terms `DisplayReader` asks its second recognizer (`ReaderStages.secondRecognition`) about a photo
/// the first refused.
///
/// Where the photo is read as it stands, the second recognizer is asked after unsure digits and after a value
/// missing, and, for a value missing, one of its values may be its alone (not the text of a line the first
/// read). In a tilted look it is asked after a value missing only, and all its values may be its alone: the
/// first may have found one row only (an oximeter's `97` and `84` on a colour screen, its first reading `-4`).
/// Measured on the generated families (issue 41): asked there for unsure digits too, or in the turned and
/// closer looks, it read more right but also wrong (a pulse of 156 as `56`, a sideways glucose `166` as `99`,
/// the two recognizers agreeing); all its values its alone in the tilted looks read one oximeter and one
/// medical product more, none wrong, at both seeds, in the held folders and the stills.
enum SecondRecognitionTerms: Sendable {
    case asItStands, tilted

    func asks(after reason: Refusal.Reason) -> Bool {
        reason == .valuesMissing || (reason == .unclearDigits && self == .asItStands)
    }

    /// How many of its values, where a value was missing, need not be the text of a line the first read.
    func valuesItAloneMayRead(of count: Int) -> Int { self == .asItStands ? 1 : count }

    /// Whether `text` starts with a 0 that another digit follows (`08.01`, `000628`; not `0.5`): where a value
    /// has no plausible range and the first recognizer's views disagreed, such a value is not taken from the
    /// second (a leading digit hidden by the bezel leaves one).
    static func hasLeadingZero(_ text: String) -> Bool {
        let digits = text.drop { $0 == "-" }
        guard digits.first == "0", let next = digits.dropFirst().first else { return false }
        return next.isNumber
    }
}
