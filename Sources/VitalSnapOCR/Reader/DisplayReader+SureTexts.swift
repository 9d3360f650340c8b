/// The texts the looks at a photo read sure, in their views too, as no plausible value (`Refusal.readSureAs`),
/// kept in `DisplayReader.sureTexts` each with whether that look read the photo turned: no later look reading the
/// photo the same way up is taken where its values contradict them (`PhotoResult.contradicts(sureTexts:)`). A look
/// that turns the photo reads its digits turned over, and a turned digit may read as another (a `4` upside down as
/// a `6`), so looks the other way up are not held to them.
extension DisplayReader {
    /// Whether `result` was read with the photo turned: stood upright by the orienter, or read in one of the
    /// turned looks.
    func isReadTurned(_ result: PhotoResult) -> Bool {
        result.readOrientation != .up || stages.turnedLooks.contains(result.readTilt)
    }

    /// Whether this reader checks a value in its views (`ViewAgreement`): not the rule-based reader, whose
    /// segments are read sure one by one, so that what it reads sure is no such evidence.
    var checksValuesInViews: Bool { !stages.agreement.views.isEmpty }

    /// Keeps the text `result` read sure as no plausible value, if any (`Refusal.readSureAs`), where the reader
    /// that read it `checkedInViews` (`checksValuesInViews`).
    mutating func noteSureText(of result: PhotoResult, checkedInViews: Bool) {
        guard checkedInViews, let text = result.reading?.refusal?.readSureAs else { return }
        sureTexts.append((text, isReadTurned(result)))
    }

    /// Whether `result` gives values that contradict a text an earlier look read sure with the photo the same
    /// way up.
    func contradictsSureTexts(_ result: PhotoResult) -> Bool {
        let turned = isReadTurned(result)
        let texts = sureTexts.lazy.filter { $0.turned == turned }.map(\.text)
        guard result.contradicts(sureTexts: texts) else { return false }
        logger.debug("\(result.reading?.readingString ?? "") not taken: no value agrees with \(Array(texts.map(\.text))), read sure")
        return true
    }
}
