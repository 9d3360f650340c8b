/// A colour in linear-ish 8-bit units (0...255 per channel, as `Float` while drawing).
public struct RGBColor: Sendable, Hashable {
    public var r: Float
    public var g: Float
    public var b: Float

    public init(_ r: Float, _ g: Float, _ b: Float) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// A neutral grey.
    public static func grey(_ v: Float) -> RGBColor { RGBColor(v, v, v) }

    public static let black = RGBColor(0, 0, 0)
    public static let white = RGBColor(255, 255, 255)

    /// The grey a JPEG decoder to grayscale reports (ITU-R BT.601 luma, as libjpeg's Y).
    public var luma: Float { 0.299 * r + 0.587 * g + 0.114 * b }

    /// Every channel times `k`.
    public func scaled(_ k: Float) -> RGBColor { RGBColor(r * k, g * k, b * k) }

    /// `self` moved towards `other` by `t` (0: self, 1: other).
    public func mixed(with other: RGBColor, _ t: Float) -> RGBColor {
        RGBColor(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t)
    }

    /// Clamped to 0...255 and rounded, for the annotations.
    public var bytes: [Int] { [r, g, b].map { Int(min(255, max(0, $0)).rounded()) } }
}
