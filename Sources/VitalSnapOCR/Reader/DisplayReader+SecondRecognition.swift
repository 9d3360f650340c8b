import VitalSnapImaging

extension DisplayReader {
    /// The second recognizer's reading of a photo the first refused as unsure of a value's digits, where each of
    /// its values is the text of a line the first recognizer read (two recognizers trained apart seldom agree on
    /// a wrong text); nil where there is no second recognizer, the photo was refused for another reason (glare,
    /// the order of the values), or the second reads nothing or another text. Where the values have no plausible
    /// range to catch two recognizers agreeing on a wrong text (a plain numeric display) and the first read a
    /// line otherwise in its views (`RecognizedLine.viewsDisagree`), nil too for a value with a leading zero: a
    /// leading digit hidden by the bezel leaves one (a fuel pump's 108.01 read `08.01` by both).
    ///
    /// A photo refused for a value missing (a BP monitor's pulse row that the first recognizer read as one digit,
    /// too small then to be a field) is read again too; there every value but one must be the text of a line the
    /// first read, and that one is the second recognizer's alone, sure at its own threshold (in a tilted look,
    /// any of them: `SecondRecognitionTerms`).
    mutating func readAgainWithSecondRecognizer(
        _ image: GrayImage, file: String, refused: PhotoResult
    ) throws(ReaderStageError) -> PhotoResult? {
        let reason = refused.reading?.refusal?.reason
        guard !secondRecognitionReader.isEmpty, let reason, secondRecognitionTerms.asks(after: reason),
            let firstText = refused.reading?.recognizedText, !firstText.isEmpty
        else { return nil }
        var second = try secondRecognitionReader[0].read(image: image, file: file)
        let values = second.reading?.values ?? []
        let firstLines = firstText.split(separator: "\n")
        let unread = values.count { value in !firstLines.contains { $0 == value.text } }
        guard !values.isEmpty, !second.givesValue(doubtedBy: refused.reading?.refusal),
            unread == 0 || (reason == .valuesMissing && unread <= secondRecognitionTerms.valuesItAloneMayRead(of: values.count))
        else { return nil }
        let inDoubt = refused.reading?.lines.contains { $0.viewsDisagree } ?? false
        guard assembler.checksEveryValueAgainstARange || !inDoubt || !values.contains(where: { SecondRecognitionTerms.hasLeadingZero($0.text) })
        else { return nil }
        let agreement = unread == 0
            ? "which agrees with the first's unsure reading" : "which found the value\(unread == 1 ? "" : "s") the first could not read"
        second.warnings.append("read by the second recognizer, \(agreement) (\(refused.message ?? "no reading"))")
        return second
    }
}
