import VitalSnapImaging

/// The last look at a photo of a device with two values or more that found some of them and not all: the part
/// around the lines found, read as a photo of its own (`CropLook`, `ReaderStages.cropLook`).
extension DisplayReader {
    /// A photo refused after every look that found some of its values and not all (`refused`), the part of it
    /// around the lines found (`CropLook`) read as a photo of its own by `cropReader`, in its luma and then its
    /// channels; taken where its values bear out the lines found (`CropLook.bearsOut`) and nothing else
    /// read sure contradicts them, with a warning. Nil where the look is not asked or reads nothing more.
    mutating func readCrop(
        around refused: PhotoResult, of luma: GrayImage, file: String, options: DecodeOptions
    ) throws(ReaderStageError) -> PhotoResult? {
        guard let look = stages.cropLook, !cropReader.isEmpty,
            let region = look.region(after: refused, width: luma.width, height: luma.height) else { return nil }
        logger.debug("""
            \(file): read again in \(region), around the lines found: \
            \(refused.reading?.lines.map { "\($0.text) (\($0.confidence))" }.joined(separator: ", ") ?? "")
            """)
        var second = try cropReader[0].readInColour(luma.cropped(to: region), file: file) { grey in
            // The channel decoded at the luma's size, or not read (the region is in the luma's pixels).
            Self.decode(file, options, in: grey).flatMap {
                $0.width == luma.width && $0.height == luma.height ? $0.cropped(to: region) : nil
            }
        }
        guard look.bearsOut(second, refused: refused),
            !second.givesValue(doubtedBy: refused.reading?.refusal), !contradictsSureTexts(second) else { return nil }
        second.readRegion = region
        second.glare = second.glare.map { $0.croppedBack(region) }
        let why = refused.message ?? "no reading"
        second.warnings.append(
            "read in the part of the photo around the lines found: the first reading gave nothing (\(why))")
        return second
    }
}
