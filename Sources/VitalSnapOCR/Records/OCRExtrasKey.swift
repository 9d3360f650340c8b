import VitalSnapRecords

/// The extras keys under which a camera reading's metadata travels with its record. All start with `ocr_`, so
/// they cannot collide with the keys Validic's SDKs write.
extension ExtrasKey {
    /// How clearly the least clear character of the reading was read, 0...1.
    public static let ocrConfidence = "ocr_confidence"
    /// Share of the display under glare, 0...1.
    public static let ocrGlareShare = "ocr_glare_share"
    /// `true` when glare overlapped the digits that were read.
    public static let ocrGlareCoversDigits = "ocr_glare_covers_digits"
    /// Where the display was in the camera frame, `[x,y,w,h]` in pixels.
    public static let ocrDisplayRegion = "ocr_display_region"
    /// Every line the OCR read, top to bottom (`?` for unreadable characters).
    public static let ocrText = "ocr_text"
}
