/// Pixel-centre conventions. `GrayImage.warp` samples at integer coordinates, pixel centres; a map worked out in
/// continuous coordinates (where pixel `k` covers `k..<k + 1`, its centre at `k + ½`) is turned into one between
/// pixel centres by these, so that the half-pixel shifts are written once.
extension AffineMap {
    /// A scaling by `s` from pixel centres to pixel centres: `x -> (x + ½)·s − ½` (an image read at `1 / s` of
    /// its size, or a frame's pixels back in the image it was scaled from).
    public static func scalingPixelCentres(by s: Double) -> AffineMap {
        AffineMap(a: s, b: 0, c: 0, d: s, tx: 0.5 * s - 0.5, ty: 0.5 * s - 0.5)
    }

    /// This map, from continuous coordinates to continuous coordinates, as a map from pixel centres to pixel
    /// centres: `p -> self(p + ½) − ½`.
    public var betweenPixelCentres: AffineMap {
        AffineMap(a: a, b: b, c: c, d: d, tx: tx + 0.5 * (a + b) - 0.5, ty: ty + 0.5 * (c + d) - 0.5)
    }

    /// This map, from pixel centres to continuous coordinates, as a map to the pixel centres of the image
    /// shrunk by `f` (a pyramid level `f = 2^k`): `p -> self(p + ½) / f − ½`.
    public func toPixelCentres(shrunkBy f: Double) -> AffineMap {
        AffineMap(
            a: a / f, b: b / f, c: c / f, d: d / f,
            tx: (tx + 0.5 * a + 0.5 * b) / f - 0.5, ty: (ty + 0.5 * c + 0.5 * d) / f - 0.5)
    }
}
