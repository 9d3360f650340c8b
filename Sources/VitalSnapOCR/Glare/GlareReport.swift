import VitalSnapImaging

/// Specular glare found on the display: washed-out regions where segments cannot be seen.
public struct GlareReport: Sendable, Hashable, Codable {
    /// Glare regions in image coordinates.
    public var regions: [PixelRect]
    /// Share of the display area under glare, 0...1.
    public var share: Double
    /// Whether any region overlaps the digits being read: then their segments may be hidden.
    public var coversDigits: Bool

    public init(regions: [PixelRect], share: Double, coversDigits: Bool) {
        self.regions = regions
        self.share = share
        self.coversDigits = coversDigits
    }

    public static let none = GlareReport(regions: [], share: 0, coversDigits: false)

    /// The same report with its regions mapped from an image turned by `orientation` back to the original
    /// image of `imageWidth` x `imageHeight`.
    public func turned(_ orientation: ExifOrientation, imageWidth w: Int, imageHeight h: Int) -> GlareReport {
        var report = self
        report.regions = regions.map { $0.turnedBack(orientation, width: w, height: h) }
        return report
    }

    /// The same report with its regions mapped from the tilted image `tilt` made back to its source (each the
    /// upright box around the region turned back).
    public func tiltedBack(_ tilt: Tilt) -> GlareReport {
        var report = self
        report.regions = regions.map { tilt.sourceBox(of: $0) }.filter { !$0.isEmpty }
        return report
    }

    /// The same report with its regions mapped from a crop of an image (`region`, in that image's pixels) back
    /// to the image.
    public func croppedBack(_ region: PixelRect) -> GlareReport {
        var report = self
        report.regions = regions.map { $0.offsetBy(dx: region.x, dy: region.y) }
        return report
    }

    /// Glare over more than this share (0...1) of the display is worth a word to the person holding it, even
    /// where it covers no digit.
    public static let noticeableShare = 0.1

    /// What to tell a person holding the device, when glare is a problem.
    public var advice: String? {
        if coversDigits { return "Glare covers the digits: tilt the device a little or move away from the light." }
        if share > Self.noticeableShare { return "Glare on the display: tilt the device a little." }
        return nil
    }
}
