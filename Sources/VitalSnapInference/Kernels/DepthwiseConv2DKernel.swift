/// Depthwise 2-D convolution (each channel convolved with its own kernel) over HWC feature maps, with the bias
/// and an optional ReLU fused into the store: zero padding, any stride and dilation.
///
/// Channels go eight at a time in a `SIMD8<Float>` (input, weights and output are all channel-contiguous, so
/// nothing is broadcast); the last `channels % 8` channels one by one. Each output pixel clips its taps to the
/// input, kernel rows per output row and kernel columns per output column.
enum DepthwiseConv2DKernel {
    static func run(_ input: FeatureMap, weights: DepthwiseConv2DWeights, window: ConvWindow, relu: Bool,
                    into output: inout FeatureMap) {
        precondition(input.channels == weights.channels,
                     "the input has \(input.channels) channels, the convolution takes \(weights.channels)")
        precondition(window.kernelY == weights.kernelY && window.kernelX == weights.kernelX,
                     "the window's kernel is not the weights' kernel")
        precondition(input.values.count == input.height * input.width * input.channels, "a malformed input map")
        let (outHeight, outWidth) = window.outputSize(height: input.height, width: input.width)
        let channels = weights.channels
        output.reshape(height: outHeight, width: outWidth, channels: channels)
        guard outHeight > 0, outWidth > 0 else { return }

        let height = input.height, width = input.width, kernelX = window.kernelX
        let rowStride = width &* channels
        let vectorEnd = channels & ~7

        input.values.withUnsafeBufferPointer { inBuffer in
            weights.weights.withUnsafeBufferPointer { weightBuffer in
                weights.bias.withUnsafeBufferPointer { biasBuffer in
                    output.values.withUnsafeMutableBufferPointer { outBuffer in
                        let src = inBuffer.baseAddress!, dst = outBuffer.baseAddress!
                        let wts = weightBuffer.baseAddress!, bias = biasBuffer.baseAddress!
                        @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
                            UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
                        }
                        for oy in 0..<outHeight {
                            let rows = window.rowsInside(outputRow: oy, height: height)
                            let rowOrigin = oy &* window.strideY &- window.padY
                            for ox in 0..<outWidth {
                                let columns = window.columnsInside(outputColumn: ox, width: width)
                                let columnOrigin = ox &* window.strideX &- window.padX
                                let out = dst + (oy &* outWidth &+ ox) &* channels
                                var c = 0
                                while c < vectorEnd {
                                    var acc = load(bias + c)
                                    var ky = rows.lowerBound
                                    while ky < rows.upperBound {
                                        let row = src + ((rowOrigin &+ ky &* window.dilationY) &* rowStride &+ c)
                                        let w = wts + (ky &* kernelX &* channels &+ c)
                                        var kx = columns.lowerBound
                                        while kx < columns.upperBound {
                                            acc += load(w + kx &* channels)
                                                * load(row + (columnOrigin &+ kx &* window.dilationX) &* channels)
                                            kx &+= 1
                                        }
                                        ky &+= 1
                                    }
                                    if relu { acc = SIMDMath.relu(acc) }
                                    UnsafeMutableRawPointer(out + c).storeBytes(of: acc, as: SIMD8<Float>.self)
                                    c &+= 8
                                }
                                while c < channels {
                                    var acc = bias[c]
                                    var ky = rows.lowerBound
                                    while ky < rows.upperBound {
                                        let row = src + ((rowOrigin &+ ky &* window.dilationY) &* rowStride &+ c)
                                        let w = wts + (ky &* kernelX &* channels &+ c)
                                        var kx = columns.lowerBound
                                        while kx < columns.upperBound {
                                            acc += w[kx &* channels] * row[(columnOrigin &+ kx &* window.dilationX) &* channels]
                                            kx &+= 1
                                        }
                                        ky &+= 1
                                    }
                                    out[c] = relu ? max(acc, 0) : acc
                                    c &+= 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
