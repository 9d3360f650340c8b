/// On what terms a plain numeric display (`numericDisplay`) refused as it stands is read again: as one line
/// filling the crop (`ReaderStages.wholeCropLocator`), then tilted (`ReaderStages.numericTiltedLooks`). Its number
/// has no plausible range to catch a wrong one, and a tilted look locates pieces of a line: an electricity
/// meter's `0113018`, unsure, read `01` tilted by 15 degrees; a scale's `109.1` seen askew, where the first look
/// found no digits, read `09`. So such a reading is taken only where another reading bears it out: the first
/// look read the same digits (unsure then, sure now), or an earlier look read the same text and it has no fewer
/// digits than the first look saw.
///
/// Measured on both halves of the numeric folders (2026-12-06, issue 41; 215 photos refused as they stand) and on
/// the stills of three samples' designs turned by 35 degrees and read as numeric displays (54): taking the first
/// tilted reading that reads no fewer digits than the first look saw, or the same ones, read 44 more right and 8
/// wrong (all of those askew stills: `09` for 109.1, `5.3` for 105.3, `737.0` for 37.0); on these terms 18 more
/// right (BP fields 6, fuel pumps 4, askew stills 8) and none wrong. The electricity meters read nothing more
/// either way.
///
/// A tilted reading that gives the first look's text with more decimals (`222.00` for its `222.0`, unsure) is
/// borne out too: a line seen askew is located level and its crop cuts the last digit; the same whole part and
/// decimals, read sure, are the same number to the first look's precision. On the fuel pumps' train half tilted
/// by 12 degrees either way (`Scripts/eval-perturbed.sh`, 2026-12-07) that read 18 and 11 more right and none
/// more wrong; both halves of the three numeric folders as they are, their tilted electricity meters and BP
/// fields, and the askew stills read the same.
///
/// The tilts after the first two are asked only where the first look found no digits (a display askew enough
/// that no line was located) or an earlier look read something that awaits a second reading: on the same
/// photos that asks 45% fewer tilted reads of the refused fuel pumps, for the same readings.
struct NumericLookTerms {
    /// How many of the tilts are asked of every photo (`ReaderStages.numericTiltedLookAngles`: 15 degrees
    /// either way); the rest only as above.
    static let tiltsAlwaysAsked = 2

    /// The steepest tilt (radians) asked of a crop whose long side is more than `longCropAspect` times its short
    /// side: such a crop holds a line along it (an electricity meter's reading line, 200x31), which a tilt of 45
    /// degrees or more would put across its short side, so a reading there is a piece of it. Measured on the held
    /// electricity meters tilted by 12 degrees (`Scripts/eval-perturbed.sh`, 2026-12-07): tilts of 45 and 60
    /// degrees asked of them too read `002` for 002924.9 and `10` for 1025.0, two tilts agreeing, and one more
    /// right; the BP fields (185x100) that those tilts read are cut askew out of their photos.
    static let longCropSteepestTilt = Double.pi / 6  // 30 degrees
    /// The aspect over which a crop is a long one (`longCropSteepestTilt`): an electricity meter's line crop is
    /// 6.5, and 2.8 turned by 12 degrees on a canvas that holds it; a BP field's crop is 1.85, a photo 1.78.
    static let longCropAspect = 2.5

    /// Whether these terms apply (a numeric display's second looks); where not, every reading is taken.
    let applies: Bool
    /// Whether the image read is a long crop (`longCropAspect`).
    private let isLongCrop: Bool
    /// The text of the line the first look read most digits of (empty: it read none).
    private let seenText: String
    /// Its digits.
    private var seen: String { Self.digits(seenText) }
    /// What the looks asked so far read, surely.
    private var read: [String] = []

    /// The terms for the second looks at a photo refused as it stands (`first`).
    init(after first: PhotoResult, applies: Bool, imageWidth: Int = 0, imageHeight: Int = 0) {
        self.applies = applies
        isLongCrop = Double(max(imageWidth, imageHeight)) > Self.longCropAspect * Double(min(imageWidth, imageHeight))
        let lines = applies ? (first.reading?.recognizedText ?? "").split(separator: "\n") : []
        seenText = lines.max { Self.digits($0).count < Self.digits($1).count }.map(String.init) ?? ""
    }

    /// Whether `text` is `seenText` with more decimals: the same whole part and the first look's decimals, then
    /// more (`222.00` for a first look's `222.0`, the level crop of a line seen askew cutting its last digit).
    private func extendsDecimals(_ text: String) -> Bool {
        // The rest all digits, so `text` has the one point `seenText` has.
        guard let point = seenText.firstIndex(of: "."), seenText.filter({ $0 == "." }).count == 1,
              text.count > seenText.count, text.hasPrefix(seenText), seenText[..<point].contains(where: \.isNumber)
        else { return false }
        return text.dropFirst(seenText.count).allSatisfy(\.isNumber)
    }

    /// Whether the photo is read at the tilt at `index` of the numeric tilted looks, `angle` (all of them where
    /// these terms do not apply).
    func asks(tiltAt index: Int, angle: Double = 0) -> Bool {
        guard applies else { return true }
        guard !isLongCrop || abs(angle) <= Self.longCropSteepestTilt else { return false }
        return index < Self.tiltsAlwaysAsked || seen.isEmpty || !read.isEmpty
    }

    /// Whether `tilted`, the reading of the photo in the next look, is taken; it is remembered where it is not.
    mutating func takes(_ tilted: PhotoResult) -> Bool {
        guard applies else { return true }
        guard let text = tilted.reading?.readingString else { return false }
        let digits = Self.digits(text)
        if !seen.isEmpty && (digits == seen || extendsDecimals(text)) { return true }
        if digits.count >= seen.count && read.contains(text) { return true }
        read.append(text)
        return false
    }

    private static func digits(_ text: some StringProtocol) -> String { String(text.filter(\.isNumber)) }
}
