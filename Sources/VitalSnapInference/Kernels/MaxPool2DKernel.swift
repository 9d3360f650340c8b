/// 2-D max pooling over HWC feature maps, PyTorch's `max_pool2d` without padding, dilation 1 and floor mode:
/// every window lies inside the input. Channels 32 at a time in four `SIMD8<Float>`, then eight at a time, the
/// last `channels % 8` one by one.
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
                @inline(__always) func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
                    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
                }
                for oy in 0..<outHeight {
                    let top = src + oy &* strideY &* rowStride
                    for ox in 0..<outWidth {
                        let corner = top + ox &* strideX &* channels
                        let out = dst + (oy &* outWidth &+ ox) &* channels
                        var c = 0
                        // 32 channels at a time: four running maxima share each tap's loop overhead.
                        while c &+ 32 <= channels {
                            let first = corner + c
                            var m0 = load(first), m1 = load(first + 8), m2 = load(first + 16), m3 = load(first + 24)
                            var ky = 0
                            while ky < kernelY {
                                let row = corner + (ky &* rowStride &+ c)
                                var kx = 0
                                while kx < kernelX {
                                    let p = row + kx &* channels
                                    m0 = SIMDMath.max(m0, load(p))
                                    m1 = SIMDMath.max(m1, load(p + 8))
                                    m2 = SIMDMath.max(m2, load(p + 16))
                                    m3 = SIMDMath.max(m3, load(p + 24))
                                    kx &+= 1
                                }
                                ky &+= 1
                            }
                            store(m0, out + c)
                            store(m1, out + (c &+ 8))
                            store(m2, out + (c &+ 16))
                            store(m3, out + (c &+ 24))
                            c &+= 32
                        }
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
                            store(m, out + c)
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
