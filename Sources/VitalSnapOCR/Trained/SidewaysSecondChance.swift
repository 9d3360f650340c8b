import VitalSnapImaging

/// The trained reader's last look at a turned photo. Its locator finds lines in any orientation and gives each
/// its reading direction, and its orienter has a photo it is sure is turned read stood upright before anything
/// else, so a photo read as it stands stands as read, but for one case: a photo that gives no value or word as it
/// stands, where the orienter guesses a quarter turn (`OrientationEstimate.isSure` false). It is then read turned
/// back that way. The orienter's quarter turns are sometimes the opposite one, which shows the digits upside down,
/// so the photo is read the other quarter turn as well, and a different value or word there refuses both.
public struct SidewaysSecondChance: TurnCheck {
    public init() {}

    public func check(
        _ asItStands: ReadPass, estimate: OrientationEstimate?, assembler: ReadingAssembler,
        readTurned: (ExifOrientation) throws(ReaderStageError) -> ReadPass
    ) throws(ReaderStageError) -> PhotoResult {
        let upright = asItStands.result
        guard let guess = estimate, !guess.isSure,
              upright.reading?.readingString == nil, upright.reading?.word == nil
        else { return upright }
        var turned = try readTurned(guess.uprightingOrientation).result
        guard let value = turned.reading?.readingString ?? turned.reading?.word else { return upright }
        let other = try readTurned(guess.uprightingOrientation.oppositeTurn).result
        if let otherValue = other.reading?.readingString ?? other.reading?.word, otherValue != value {
            return upright.refused(Refusal(.turnsDisagree, "the photo reads \(value) turned one way and \(otherValue) the other"))
        }
        turned.warnings.append(
            "read turned: the photo was sideways (orienter \(String(format: "%.2f", guess.confidence)), nothing read as it is)")
        return turned
    }
}
