import Foundation

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

    /// WCAG 2's relative luminance (0 black, 1 white), each channel read as sRGB.
    public var relativeLuminance: Double {
        func linear(_ c: Float) -> Double {
            let v = Double(min(255, max(0, c))) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    /// WCAG 2's contrast ratio with `other`: 1 (the same luminance) to 21 (black on white).
    public func contrastRatio(with other: RGBColor) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The relative luminance as far, in WCAG 2's contrast ratio, from black as from white (the square root of
    /// 1.05 x 0.05, less 0.05): a background lighter than this is light.
    public static let middleLuminance = (1.05 * 0.05).squareRoot() - 0.05

    /// `self` moved towards black on a light `background` or towards white on a dark one, the least that gives it
    /// `ratio` of contrast with it (WCAG 2), or as far as it goes.
    public func legible(on background: RGBColor, ratio: Double) -> RGBColor {
        guard contrastRatio(with: background) < ratio else { return self }
        let target: RGBColor = background.relativeLuminance > Self.middleLuminance ? .black : .white
        var (low, high): (Float, Float) = (0, 1)
        for _ in 0..<20 {
            let t = (low + high) / 2
            if mixed(with: target, t).contrastRatio(with: background) < ratio { low = t } else { high = t }
        }
        return mixed(with: target, high)
    }

    /// Every channel times `k`.
    public func scaled(_ k: Float) -> RGBColor { RGBColor(r * k, g * k, b * k) }

    /// `self` moved towards `other` by `t` (0: self, 1: other).
    public func mixed(with other: RGBColor, _ t: Float) -> RGBColor {
        RGBColor(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t)
    }

    /// Clamped to 0...255 and rounded, for the annotations.
    public var bytes: [Int] { [r, g, b].map { Int(min(255, max(0, $0)).rounded()) } }
}
