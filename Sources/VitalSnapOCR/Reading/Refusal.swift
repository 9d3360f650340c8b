/// Why a photo or frame gives no value: the kind of doubt, which the reader's next step goes by (only unclear
/// digits go to the second recognizer), and the words a user reads.
public struct Refusal: Sendable, Hashable, Error, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// No line that may be a value.
        case noDigits
        /// Fewer value lines than the peripheral has fields.
        case valuesMissing
        /// Much larger characters than the tallest line read sit beside it, unread: they are the value.
        case largerCharactersUnread
        /// A digit-sized gap inside a value's line: a digit may be hidden or lost.
        case digitMissing
        /// The recognizer was unsure of a value's digits: the one refusal a second recognizer may overturn.
        case unclearDigits
        /// A value read, but not one its field can show (not a number, too many digits, another unit, out of
        /// range, systolic not above diastolic).
        case implausible
        /// The values read as plausibly in another order.
        case unclearOrder
        /// Glare covers the digits.
        case glare
        /// The photo reads one value one way up and another turned.
        case turnsDisagree
    }

    public var reason: Reason
    /// In words a user understands, e.g. `found 2 of the 3 values`.
    public var message: String
    /// A value's text read but doubted because a thin leading `1` may be missing from it (`43.1` for a scale's
    /// 143.1): none of the reader's later looks may give it, since reading the same digits again, from other
    /// lines or tilted, does not show the `1` they missed (nil: no such doubt).
    public var lacksLeadingOne: String?
    /// A value read but doubted as an error code upside down (`63` for `E9`, `TurnedErrorCodeCheck`): none of the
    /// later looks may give it either, since a look that reads it reads the same turn of the same digits.
    public var mayBeTurnedErrorCode: String?
    /// A value read beside another value line that reads sure the other way up (`ReadingAssembler`): one of the
    /// two was read turned, and a later look that reads the same text reads the same turn of the same digits.
    public var mayBeReadTurned: String?
    /// A value line's text read sure that its field cannot show (`197` for an oximeter's SpO2, the pulse bar
    /// before its `97` read as a `1`): the line shows those characters clearly, so a later look's value must
    /// agree with them (`SureText`, `PhotoResult.contradicts(sureTexts:)`); one of other digits (`91`, that
    /// oximeter read tilted a further 45 degrees) reads the display otherwise than it is.
    public var readSureAs: SureText?

    /// Whether `text` is a value this refusal doubts for what reading the same digits again cannot settle
    /// (`lacksLeadingOne`, `mayBeTurnedErrorCode`, `mayBeReadTurned`): a later look may not give it.
    public func doubts(_ text: String) -> Bool {
        text == lacksLeadingOne || text == mayBeTurnedErrorCode || text == mayBeReadTurned
    }

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }

    /// No line that may be a value (the assembler's, and a frame's without a reading).
    public static let noDigitsFound = Refusal(.noDigits, "no digits found")
}
