/// max(x, 0) elementwise over a feature map, eight values at a time in a `SIMD8<Float>`, the last `count % 8`
/// one by one. (Convolutions and sums apply their ReLU fused into their own store; this is the `relu` layer.)
enum ReLUKernel {
    static func run(_ input: FeatureMap, into output: inout FeatureMap) {
        precondition(input.values.count == input.height * input.width * input.channels, "a malformed input map")
        output.reshape(height: input.height, width: input.width, channels: input.channels)
        let count = input.values.count
        guard count > 0 else { return }
        input.values.withUnsafeBufferPointer { inBuffer in
            output.values.withUnsafeMutableBufferPointer { outBuffer in
                let src = UnsafeRawPointer(inBuffer.baseAddress!), out = outBuffer.baseAddress!
                var i = 0
                while i &+ 8 <= count {
                    let v = SIMDMath.relu(src.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self))
                    UnsafeMutableRawPointer(out + i).storeBytes(of: v, as: SIMD8<Float>.self)
                    i &+= 8
                }
                while i < count {
                    out[i] = max(inBuffer[i], 0)
                    i &+= 1
                }
            }
        }
    }
}
