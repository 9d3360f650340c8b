/// Elementwise sum of two HWC feature maps of one shape, with an optional ReLU: eight values at a time in a
/// `SIMD8<Float>` over the whole buffer, the last `count % 8` one by one.
enum AddKernel {
    static func run(_ a: FeatureMap, _ b: FeatureMap, relu: Bool, into output: inout FeatureMap) {
        precondition(a.height == b.height && a.width == b.width && a.channels == b.channels,
                     "sum of a \(a.height)x\(a.width)x\(a.channels) and a \(b.height)x\(b.width)x\(b.channels) map")
        precondition(a.values.count == b.values.count, "a malformed input map")
        output.reshape(height: a.height, width: a.width, channels: a.channels)
        let count = a.values.count
        guard count > 0 else { return }
        a.values.withUnsafeBufferPointer { aBuffer in
            b.values.withUnsafeBufferPointer { bBuffer in
                output.values.withUnsafeMutableBufferPointer { outBuffer in
                    let pa = UnsafeRawPointer(aBuffer.baseAddress!), pb = UnsafeRawPointer(bBuffer.baseAddress!)
                    let out = outBuffer.baseAddress!
                    var i = 0
                    while i &+ 8 <= count {
                        var sum = pa.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
                            + pb.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
                        if relu { sum = SIMDMath.relu(sum) }
                        UnsafeMutableRawPointer(out + i).storeBytes(of: sum, as: SIMD8<Float>.self)
                        i &+= 8
                    }
                    while i < count {
                        let sum = aBuffer[i] + bBuffer[i]
                        out[i] = relu ? max(sum, 0) : sum
                        i &+= 1
                    }
                }
            }
        }
    }
}
