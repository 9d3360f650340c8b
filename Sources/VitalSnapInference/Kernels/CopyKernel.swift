/// Copies of short runs of floats (one pixel's channels), eight at a time in a `SIMD8<Float>` and the rest one
/// by one: cheaper than a `memmove` call for the handful of channels a pixel has.
enum CopyKernel {
    @inline(__always)
    static func copy(_ from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i &+ 8 <= count {
            UnsafeMutableRawPointer(to + i).storeBytes(
                of: UnsafeRawPointer(from + i).loadUnaligned(as: SIMD8<Float>.self), as: SIMD8<Float>.self)
            i &+= 8
        }
        while i < count {
            to[i] = from[i]
            i &+= 1
        }
    }
}
