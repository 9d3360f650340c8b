/// A value line's text read sure, in its views too, that its field cannot show (`Refusal.readSureAs`): the line
/// shows those characters clearly, so a later look's value must agree with them.
///
/// A value agrees where its digits hold the text's, or the text's hold its: characters around the value read with
/// it (a pulse bar or an icon read as a `1`: `97` for `197`) or a digit the sure look lost at an end (`11` for
/// `114`). A line may have been read turned over (the detector gives each line its own reading direction), so the
/// text turned over counts too (`-18` for `81`); and where that turned-over text is a plausible value of a display
/// of one value (`801`, a glucose meter's `108` upside down), the line is upside down, and only that text counts:
/// `80`, the as-read digits less the last, reads the line the wrong way up. (On a display of several values a text
/// implausible for one field may be another's: a BP monitor's diastolic `58`, whose `85` is a systolic.)
public struct SureText: Sendable, Hashable {
    /// The text as read (`197`, `801`).
    public var text: String
    /// The text turned over (`TurnedErrorCodeCheck.turnedOver`, minus signs dropped) where that is a plausible
    /// value of a display of one value; nil otherwise.
    public var plausibleTurnedOver: String?

    public init(_ text: String, plausibleTurnedOver: String? = nil) {
        self.text = text
        self.plausibleTurnedOver = plausibleTurnedOver
    }

    /// Whether a value shown as `value` agrees with this text.
    public func agrees(with value: String) -> Bool {
        let digits = value.filter(\.isNumber)
        func holds(_ sure: String) -> Bool {
            let sureDigits = sure.filter(\.isNumber)
            return !sureDigits.isEmpty && (digits.contains(sureDigits) || sureDigits.contains(digits))
        }
        if let plausibleTurnedOver { return holds(plausibleTurnedOver) }
        return holds(text) || TurnedErrorCodeCheck.turnedOver(text).map(holds) == true
    }
}
