/// The terms of the contrast looks (`ReaderStages.contrastLooks`): which photos `DisplayReader` reads again with
/// their contrast evened out, and which of those readings it takes. Evened out, a dim row stands out; so do the
/// unlit segments of an LCD (ghosts) and the symmetric digits that read as others turned, so the look is asked
/// on narrower terms than the others. Measured on the generated medical families (1,200 scenes at each of seeds
/// 900001 and 900002; issue 41): each term below was added for the wrong readings it took out (docs/accuracy.md
/// has the figures).
enum ContrastLook {
    /// Whether a photo refused after every other look (`refused`) is read evened out: not after glare over the
    /// digits, nor where an error code was seen (`SecondOpinion.mayAsk(after:)`), nor where a line read is a
    /// clock or a date (`ReaderStages.mayReadTurned(after:)`): such a display shows which way up it is and
    /// that the value is not among its numbers (a glucose meter's `---` beside its date `21-07`, evened out and
    /// read turned, gave `27`).
    static func mayAsk(after refused: PhotoResult) -> Bool {
        refused.reading?.values.isEmpty != false && refused.reading?.word == nil
            && refused.reading?.refusal?.reason != .glare && refused.glare?.coversDigits != true
            && ReaderStages.SecondOpinion.mayAsk(after: refused) && ReaderStages.mayReadTurned(after: refused)
    }

    /// Whether a photo refused (`refused`) is read evened out: on the terms above, and not where it is a crop
    /// of a plain numeric display's line (`plainNumberCrop`: `WorkingFrame.isDisplayCrop`), since 2026-12-07 the
    /// only plain numeric displays not evened out. The equalizer's 8 x 8 tiles over such a crop are a fraction
    /// of a digit: evened out tile by tile, the strokes themselves are stretched and the crop's noise and unlit
    /// segments brought up. Measured (issue 41): evened out, a binarized BP field's `93` beside a stray edge was
    /// read `931`, and the electricity meters' perturbed copies (`Scripts/eval-perturbed.sh`) 31 more right and
    /// 14 more wrong; the whole photos of fuel pumps read 4 more of their held half right (187 of 220) and 3 of
    /// their train half, none more wrong (`--match litres`), a reading taken on `NumericLookTerms` too.
    ///
    /// A plain number's evened-out photo is read as it stands, no more (`DisplayReader.readWithLooks`): not
    /// stood upright again (the photo as it is was), no second recognizer, no second look. With its second
    /// recognizer, one more of the fuel pumps' 220 held photos read right (188, not 187) at twice the look's
    /// cost; no photo of theirs was read right by a second look of the evened-out photo. So asked, the contrast
    /// looks made `vitalsnap batch` on the folder take 1.17 times as long, and 1.03 times with
    /// `ViewAgreement.isSettled` beside them (medians of four runs each, side by side).
    static func mayAsk(after refused: PhotoResult, plainNumberCrop: Bool) -> Bool {
        mayAsk(after: refused) && !plainNumberCrop
    }

    /// Which of the reader's second looks are asked in the evened-out photo: not the turned looks (a turned
    /// reading of symmetric segments is another number: `38.7` for a scale's 238.7) nor the rules, which read
    /// segments as they come, the ghosts that evening out brings up among them.
    static func asks(turned: Bool, rules: Bool) -> Bool { !turned && !rules }

    /// The texts of the lines the refused reading chose but was unsure of (below `minimumConfidence`), and the
    /// value it doubted as lacking a leading `1` (`Refusal.lacksLeadingOne`), without the `1` and with it: evened
    /// out, the ghost of an LCD's unlit leading digit shows a `1`'s two strokes (a scale's 35.7 read `135.7`); and
    /// the value it doubted as an error code upside down (`Refusal.mayBeTurnedErrorCode`) or as read turned
    /// (`Refusal.mayBeReadTurned`).
    static func doubted(in refused: PhotoResult, minimumConfidence: Double) -> [String] {
        var doubted = refused.reading?.lines.filter { $0.confidence < minimumConfidence }.map(\.text) ?? []
        if let code = refused.reading?.refusal?.mayBeTurnedErrorCode { doubted.append(code) }
        if let turned = refused.reading?.refusal?.mayBeReadTurned { doubted.append(turned) }
        guard let lacking = refused.reading?.refusal?.lacksLeadingOne else { return doubted }
        return doubted + [lacking, "1" + lacking]
    }

    /// Whether the evened-out reading `second` is taken: values only (a word brought up by evening out is
    /// ghosts or glare as often as a word); none of them the text of a line the refused reading doubted (the
    /// same pixels, brighter, read the same text surer, which settles nothing: a monitor's diastolic 72 read
    /// `77`, unsure then sure); none of them all 8s, what an LCD's ghost segments read once evened out (a
    /// glucose meter's `HI` and `---` read `88`).
    static func takes(_ second: PhotoResult, doubted: [String]) -> Bool {
        guard let values = second.reading?.values, !values.isEmpty else { return false }
        return !values.contains { value in
            doubted.contains(value.text) || value.text.filter(\.isNumber).allSatisfy { $0 == "8" }
        }
    }
}
