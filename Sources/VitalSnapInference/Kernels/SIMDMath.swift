/// Lane-wise max and ReLU on `SIMD8<Float>` that compile to compare-and-mask instructions. The standard
/// library's generic `pointwiseMax` is not inlined here (measured: one function call per vector, a fifth of a
/// first-layer convolution's time); `replacing(with:where:)` at this width is.
enum SIMDMath {
    /// max(v, 0) per lane (a NaN stays NaN).
    @inline(__always)
    static func relu(_ v: SIMD8<Float>) -> SIMD8<Float> {
        v.replacing(with: 0, where: v .< 0)
    }

    /// The larger of `a` and `b` per lane.
    @inline(__always)
    static func max(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: a .< b)
    }
}
