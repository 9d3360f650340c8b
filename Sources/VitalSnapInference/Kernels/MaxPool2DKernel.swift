/// 2-D max pooling over HWC feature maps, PyTorch's `max_pool2d` without padding, dilation 1 and floor mode:
/// every window lies inside the input. Channels eight at a time in a `SIMD8<Float>`, the last `channels % 8`
/// one by one.
enum MaxPool2DKernel {
    static func run(_ input: FeatureMap, kernelY: Int, kernelX: Int, strideY: Int, strideX: Int,
                    into output: inout FeatureMap) {
        let window = ConvWindow(kernelY: kernelY, kernelX: kernelX, strideY: strideY, strideX: strideX)
        precondition(input.values.count == input.height * input.width * input.channels, "a malformed input map")
        let (outHeight, outWidth) = window.outputSize(height: input.height, width: input.width)
        let channels = input.channels
        output.reshape(height: outHeight, width: outWidth, channels: channels)
        guard outHeight > 0, outWidth > 0, channels > 0 else { return }
        let rowStride = input.width &* channels
        let vectorEnd = channels & ~7

        input.values.withUnsafeBufferPointer { inBuffer in
            output.values.withUnsafeMutableBufferPointer { outBuffer in
                let src = inBuffer.baseAddress!, dst = outBuffer.baseAddress!
                @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
                    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
                }
                for oy in 0..<outHeight {
                    let top = src + oy &* strideY &* rowStride
                    for ox in 0..<outWidth {
                        let corner = top + ox &* strideX &* channels
                        let out = dst + (oy &* outWidth &+ ox) &* channels
                        var c = 0
                        while c < vectorEnd {
                            var m = load(corner + c)
                            var ky = 0
                            while ky < kernelY {
                                let row = corner + (ky &* rowStride &+ c)
                                var kx = 0
                                while kx < kernelX {
                                    m = SIMDMath.max(m, load(row + kx &* channels))
                                    kx &+= 1
                                }
                                ky &+= 1
                            }
                            UnsafeMutableRawPointer(out + c).storeBytes(of: m, as: SIMD8<Float>.self)
                            c &+= 8
                        }
                        while c < channels {
                            var m = corner[c]
                            var ky = 0
                            while ky < kernelY {
                                let row = corner + (ky &* rowStride &+ c)
                                var kx = 0
                                while kx < kernelX {
                                    m = max(m, row[kx &* channels])
                                    kx &+= 1
                                }
                                ky &+= 1
                            }
                            out[c] = m
                            c &+= 1
                        }
                    }
                }
            }
        }
    }
}
