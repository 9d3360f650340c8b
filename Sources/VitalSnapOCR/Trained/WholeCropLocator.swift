/// Stage (locator): a crop of one display line taken whole, the line the trained recognizer learnt such crops as.
///
/// Input: the working frame. Output: one value line across the middle of the frame, `lengthShare` of its width
/// long and `digitShare` of its height tall: the quad `Training/real_data.py` (`whole_image_quad`) gives a real
/// image that is one line (an electricity meter's reading cut out, a BP monitor's field), with its default
/// share for a source it has not measured. Nothing for an image that is no crop of a display
/// (`WorkingFrame.isDisplayCrop`) or is taller than wide: one line does not fill it.
///
/// A plain numeric display refused as it stands is read so before its tilted looks (`ReaderStages.wholeCropLocator`),
/// the reading taken on `NumericLookTerms`' terms. Measured on the numeric folders (2026-12-06, issue 41):
/// electricity-meter held 30 / 1 -> 34 / 1, train 57 / 3 -> 63 / 3; bp-fields-binarized held 77 / 2 -> 78 / 2,
/// train 94 / 0; the fuel pumps (no crops) and the sample stills read as numeric displays unchanged. With the
/// second recognizer asked there too (unsure digits that it reads alike), electricity-meter 36 / 1 and 64 / 3,
/// the rest as before. With 0.7 or 0.88 of the height (before the second recognizer was asked there) the held
/// electricity meters read 37 / 1 and 35 / 2, the held BP fields 78 / 4 and 78 / 2; taken without the terms,
/// 35 / 1 and 79 / 3 (and a train BP field wrong).
public struct WholeCropLocator: LineLocator {
    /// The share of the crop's width the line is taken to run.
    public static let lengthShare = 0.96
    /// The share of the crop's height its digits are taken to fill.
    public static let digitShare = 0.8

    public init() {}

    public mutating func locate(in frame: WorkingFrame) throws(ReaderStageError) -> [TextLine] {
        let working = frame.working
        guard frame.isDisplayCrop, working.width >= working.height, working.height > 0 else { return [] }
        return [TextLine(
            candidates: [], polarity: .dark, centerX: Double(working.width) / 2, centerY: Double(working.height) / 2,
            angle: 0, length: Double(working.width) * Self.lengthShare, digitHeight: Double(working.height) * Self.digitShare,
            candidatesAreCharacters: false, role: .value)]
    }
}
