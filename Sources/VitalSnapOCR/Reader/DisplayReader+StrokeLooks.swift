import VitalSnapImaging

/// The stroke looks at a plain numeric display refused after its other looks (`StrokeLook`,
/// `ReaderStages.strokeLooks`).
extension DisplayReader {
    /// `image`, thresholded (`StrokeLook.isThresholded`) and refused as it stands (`refused`) and in the other
    /// looks, read with its strokes' holes filled in each of the stroke looks in turn; the first reading whose
    /// text an earlier stroke look read sure too, and the refused reading did not doubt, is returned, nil where
    /// none is. The window is sized, and the ink told, by the line of the refused reading with the tallest digits.
    mutating func readWithStrokesFilled(_ image: GrayImage, file: String, refused: PhotoResult) throws(ReaderStageError) -> PhotoResult? {
        guard let line = refused.reading?.lines.max(by: { $0.digitHeight < $1.digitHeight }), line.digitHeight > 0,
              StrokeLook.isThresholded(image) else { return nil }
        let doubted = ContrastLook.doubted(in: refused, minimumConfidence: stages.minimumConfidence)
        var readSure: [String] = []
        for look in stages.strokeLooks {
            let radius = look.radius(digitHeight: line.digitHeight)
            guard radius > 0 else { continue }
            look.fill(image, ink: line.polarity, radius: radius, into: &strokeBuffers)
            var second = try read(strokeBuffers.filled, file: file, standingUpright: configuration.standsPhotosUpright).result
            noteSureText(of: second, checkedInViews: checksValuesInViews)
            guard let text = second.reading?.readingString, !doubted.contains(text), !contradictsSureTexts(second) else { continue }
            guard readSure.contains(text) else {
                readSure.append(text)
                continue
            }
            second.warnings.append(
                "read with its strokes' holes filled (\(radius) px): the first reading gave nothing (\(refused.message ?? "no reading"))")
            return second
        }
        return nil
    }
}
