import CVectorKernels

/// Depthwise 2-D convolution (each channel convolved with its own kernel) over HWC feature maps, with the bias
/// and an optional ReLU fused into the store: zero padding, any stride and dilation.
///
/// Channels go 32 at a time in four `SIMD8<Float>` accumulators, then eight at a time (input, weights and output
/// are all channel-contiguous, so nothing is broadcast), the last `channels % 8` one by one. Kernel rows are clipped to the input per
/// output row, kernel columns per output column outside the interior (where all of them are inside). On a CPU
/// with AVX2 and FMA (`Conv2DKernel.hasVectorUnit`) each output row runs in `CVectorKernels` instead: the same
/// loops, 8 lanes to a register, one fused multiply-add per tap (`vectorUnit: false` keeps the Swift loops).
enum DepthwiseConv2DKernel {
    static func run(_ input: FeatureMap, weights: DepthwiseConv2DWeights, window: ConvWindow, relu: Bool,
                    into output: inout FeatureMap, vectorUnit: Bool = Conv2DKernel.hasVectorUnit) {
        let fused = vectorUnit && Conv2DKernel.hasVectorUnit
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
        let interior = window.interiorColumns(width: width, outputWidth: outWidth)

        input.values.withUnsafeBufferPointer { inBuffer in
            weights.weights.withUnsafeBufferPointer { weightBuffer in
                weights.bias.withUnsafeBufferPointer { biasBuffer in
                    output.values.withUnsafeMutableBufferPointer { outBuffer in
                        let src = inBuffer.baseAddress!, dst = outBuffer.baseAddress!
                        let wts = weightBuffer.baseAddress!, bias = biasBuffer.baseAddress!
                        @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
                            UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
                        }
                        @inline(__always) func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
                            UnsafeMutableRawPointer(p).storeBytes(of: relu ? SIMDMath.relu(v) : v, as: SIMD8<Float>.self)
                        }
                        for oy in 0..<outHeight {
                            let rows = window.rowsInside(outputRow: oy, height: height)
                            let rowOrigin = oy &* window.strideY &- window.padY
                            if fused {
                                vs_depthwise_row_avx2(
                                    src, dst + oy &* outWidth &* channels, wts, bias, rowOrigin, rows.lowerBound,
                                    rows.upperBound, window.dilationY, width, kernelX, window.strideX, window.padX,
                                    window.dilationX, outWidth, channels, relu ? 1 : 0)
                                continue
                            }
                            for ox in 0..<outWidth {
                                let columns = interior.contains(ox) ? 0..<kernelX : window.columnsInside(outputColumn: ox, width: width)
                                let columnOrigin = ox &* window.strideX &- window.padX
                                let out = dst + (oy &* outWidth &+ ox) &* channels
                                var c = 0
                                // 32 channels at a time: four accumulators share each tap's loop overhead.
                                while c &+ 32 <= channels {
                                    var a0 = load(bias + c), a1 = load(bias + (c &+ 8))
                                    var a2 = load(bias + (c &+ 16)), a3 = load(bias + (c &+ 24))
                                    var ky = rows.lowerBound
                                    while ky < rows.upperBound {
                                        let row = src + ((rowOrigin &+ ky &* window.dilationY) &* rowStride &+ c)
                                        let w = wts + (ky &* kernelX &* channels &+ c)
                                        var kx = columns.lowerBound
                                        while kx < columns.upperBound {
                                            let wp = w + kx &* channels
                                            let xp = row + (columnOrigin &+ kx &* window.dilationX) &* channels
                                            a0 += load(wp) * load(xp)
                                            a1 += load(wp + 8) * load(xp + 8)
                                            a2 += load(wp + 16) * load(xp + 16)
                                            a3 += load(wp + 24) * load(xp + 24)
                                            kx &+= 1
                                        }
                                        ky &+= 1
                                    }
                                    store(a0, out + c)
                                    store(a1, out + (c &+ 8))
                                    store(a2, out + (c &+ 16))
                                    store(a3, out + (c &+ 24))
                                    c &+= 32
                                }
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
                                    store(acc, out + c)
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
