import Foundation
import VitalSnapImaging

/// Stage: a value that may be an error screen read upside down. Turned over, a seven-segment `E` is a `3` and
/// the digit after it another digit (`E9` reads `63`, `E6` `93`, `E2` `23`), so a meter showing an error code,
/// photographed upside down, reads as a low glucose value, the one kind of wrong reading that matters most. The
/// orienter, which sees the display around the digits, is seldom sure enough to turn such a photo, but it gives
/// the turn that reads the error code some probability; where that probability is at least
/// `minimumTurnedOverProbability`, a single value whose digits turned over are `E` and a digit is refused.
///
/// Input: the result of one look and the orienter's turn probabilities for the image that look was given.
/// Output: the result, refused (`Refusal.Reason.turnsDisagree`) where it may be such a code; none of the reader's
/// later looks may then give that value (`Refusal.mayBeTurnedErrorCode`).
public struct TurnedErrorCodeCheck: Sendable {
    public struct Configuration: Sendable {
        /// The orienter's probability for the photo being upside down as read, from which a value that reads as
        /// an error code turned over is refused. Set on the generated medical families (seeds 900001 and
        /// 900002, 2,400 scenes; issue 41): at 0.05 it refused four of the five error screens read as values (`63`
        /// twice, `93`, `23`; the fifth, `Er` read `31`, is no `E` and digit) and one right `93`. From the
        /// orienter's probabilities on those photos, 0 would have refused another right `93` too, and at 0.2 one
        /// of the four would have stood.
        public var minimumTurnedOverProbability = 0.05
        public init() {}
    }

    public var configuration: Configuration
    /// Whether the peripheral shows error codes among its values: every one but a plain numeric display, whose
    /// two-digit values have no error screen to be (the BP fields' `63`, refused for one at 0.05).
    public var applies: Bool

    public init(configuration: Configuration = .init(), peripheral: PeripheralType = .glucoseMeter) {
        self.configuration = configuration
        applies = peripheral != .numericDisplay
    }

    /// The text a seven-segment display shows turned over (read backwards, each character turned), or nil where
    /// a character has no such counterpart.
    static func turnedOver(_ text: String) -> String? {
        var out = ""
        for c in text.reversed() {
            switch c {
            case "0", "1", "2", "5", "8", "-": out.append(c)
            case "3": out.append("E")
            case "E": out.append("3")
            case "6": out.append("9")
            case "9": out.append("6")
            default: return nil
            }
        }
        return out
    }

    /// The error code `text` shows turned over (`E` and one digit: `E9` for `63`), or nil.
    static func errorCodeTurnedOver(_ text: String) -> String? {
        guard let turned = turnedOver(text), turned.count == 2, turned.first == "E", turned.last?.isNumber == true
        else { return nil }
        return turned
    }

    /// Whether `text` turned over is an error code (`errorCodeTurnedOver`).
    static func isErrorCodeTurnedOver(_ text: String) -> Bool { errorCodeTurnedOver(text) != nil }

    /// `result` refused where its one value reads as an error code turned over and `probabilities` (the orienter's,
    /// for the image as given to the look) give the photo turned over as read at least the threshold.
    public func check(_ result: PhotoResult, probabilities: TurnProbabilities) -> PhotoResult {
        guard applies, let values = result.reading?.values, values.count == 1, let code = Self.errorCodeTurnedOver(values[0].text),
              let corners = result.reading?.lines.first?.corners
        else { return result }
        // The turn the look read the value at: the photo's own turn, then its line's reading direction.
        let lineTurns = Int((corners.angle / (Double.pi / 2)).rounded())
        let turnedOver = probabilities[result.readOrientation.clockwiseTurnsStoodUp + lineTurns + 2]
        guard turnedOver >= configuration.minimumTurnedOverProbability else { return result }
        var doubt = Refusal(
            .turnsDisagree, "\(values[0].text) may be the error code \(code) upside down (orienter \(String(format: "%.2f", turnedOver)))")
        doubt.mayBeTurnedErrorCode = values[0].text
        return result.refused(doubt)
    }
}
