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
        report.regions = regions.map { r in
            switch orientation {
            case .down: PixelRect(x: w - r.x - r.width, y: h - r.y - r.height, width: r.width, height: r.height)
            // Turned clockwise: a point (x, y) of the turned image came from (y, h - 1 - x).
            case .right: PixelRect(x: r.y, y: h - r.x - r.width, width: r.height, height: r.width)
            // Turned counter-clockwise: (x, y) came from (w - 1 - y, x).
            case .left: PixelRect(x: w - r.y - r.height, y: r.x, width: r.height, height: r.width)
            default: r
            }
        }
        return report
    }

    /// What to tell a person holding the device, when glare is a problem.
    public var advice: String? {
        if coversDigits { return "Glare covers the digits: tilt the device a little or move away from the light." }
        if share > 0.1 { return "Glare on the display: tilt the device a little." }
        return nil
    }
}
