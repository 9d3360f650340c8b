/// Dense 2-D convolution (groups = 1) over HWC feature maps, with the bias and an optional ReLU fused into the
/// store: zero padding, any stride and dilation.
///
/// Output channels go in blocks of 8, one `SIMD8<Float>` accumulator per output pixel; each input value is
/// broadcast and multiplied with the 8 weights of its tap and channel. A row of output pixels runs block by
/// block (a block's weights stay in L1): its interior, where every tap lies inside the input, four pixels at
/// a time without bounds checks (the four share each weight load), and the border and leftover pixels one by
/// one, clipping the taps to the input. Kernel rows outside the input are skipped per output row. A single
/// input channel (the first layer) has a path without the channel loop. Pointer arithmetic wraps (`&+`): the
/// offsets are bounded by the map sizes checked on entry.
enum Conv2DKernel {
    static func run(_ input: FeatureMap, weights: Conv2DWeights, window: ConvWindow, relu: Bool,
                    into output: inout FeatureMap) {
        precondition(input.channels == weights.inChannels,
                     "the input has \(input.channels) channels, the convolution takes \(weights.inChannels)")
        precondition(window.kernelY == weights.kernelY && window.kernelX == weights.kernelX,
                     "the window's kernel is not the weights' kernel")
        precondition(input.values.count == input.height * input.width * input.channels, "a malformed input map")
        let (outHeight, outWidth) = window.outputSize(height: input.height, width: input.width)
        let cout = weights.outChannels
        output.reshape(height: outHeight, width: outWidth, channels: cout)
        guard outHeight > 0, outWidth > 0 else { return }

        let height = input.height, width = input.width, cin = weights.inChannels
        let kernelX = window.kernelX
        let strideX = window.strideX, padX = window.padX, dilationX = window.dilationX
        let strideY = window.strideY, padY = window.padY, dilationY = window.dilationY
        let interior = window.interiorColumns(width: width, outputWidth: outWidth)
        let rowStride = width &* cin
        let pixelStep = strideX &* cin  // between the inputs of neighbouring output pixels
        let tapStep = dilationX &* cin  // between neighbouring taps of one kernel row
        let blockStride = weights.kernelY &* kernelX &* cin
        let blocks = weights.blocks
        let lastLanes = cout &- (blocks &- 1) &* 8

        input.values.withUnsafeBufferPointer { inBuffer in
            weights.weights.withUnsafeBufferPointer { weightBuffer in
                weights.bias.withUnsafeBufferPointer { biasBuffer in
                    output.values.withUnsafeMutableBufferPointer { outBuffer in
                        let src = inBuffer.baseAddress!, dst = outBuffer.baseAddress!
                        let allWeights = weightBuffer.baseAddress!

                        @inline(__always) func store(_ value: SIMD8<Float>, _ to: UnsafeMutablePointer<Float>, full: Bool) {
                            let v = relu ? pointwiseMax(value, .zero) : value
                            if full {
                                UnsafeMutableRawPointer(to).storeBytes(of: v, as: SIMD8<Float>.self)
                            } else {
                                var lane = 0
                                while lane < lastLanes { to[lane] = v[lane]; lane &+= 1 }
                            }
                        }

                        for oy in 0..<outHeight {
                            let rows = window.rowsInside(outputRow: oy, height: height)
                            let rowOrigin = oy &* strideY &- padY
                            let outRow = dst + oy &* outWidth &* cout
                            for block in 0..<blocks {
                                let bias = biasBuffer[block]
                                let blockWeights = allWeights + block &* blockStride
                                let full = block &+ 1 < blocks || lastLanes == 8
                                let outBlock = outRow + block &* 8

                                // One output pixel, taps clipped to the input.
                                @inline(__always) func single(_ ox: Int) {
                                    var acc = bias
                                    let columns = window.columnsInside(outputColumn: ox, width: width)
                                    let columnOrigin = ox &* strideX &- padX
                                    var ky = rows.lowerBound
                                    while ky < rows.upperBound {
                                        let row = src + (rowOrigin &+ ky &* dilationY) &* rowStride
                                        var kx = columns.lowerBound
                                        while kx < columns.upperBound {
                                            let p = row + (columnOrigin &+ kx &* dilationX) &* cin
                                            let w = blockWeights + (ky &* kernelX &+ kx) &* cin
                                            var ci = 0
                                            while ci < cin {
                                                acc += w[ci] * p[ci]
                                                ci &+= 1
                                            }
                                            kx &+= 1
                                        }
                                        ky &+= 1
                                    }
                                    store(acc, outBlock + ox &* cout, full: full)
                                }

                                var ox = 0
                                while ox < interior.lowerBound { single(ox); ox &+= 1 }
                                // Four interior pixels at a time.
                                while ox &+ 4 <= interior.upperBound {
                                    var a0 = bias, a1 = bias, a2 = bias, a3 = bias
                                    let columnOrigin = ox &* strideX &- padX
                                    var ky = rows.lowerBound
                                    while ky < rows.upperBound {
                                        let row = src + (rowOrigin &+ ky &* dilationY) &* rowStride
                                        var p0 = row + columnOrigin &* cin
                                        var w = blockWeights + ky &* kernelX &* cin
                                        if cin == 1 {
                                            var kx = 0
                                            while kx < kernelX {
                                                let wv = w[0]
                                                a0 += wv * p0[0]
                                                a1 += wv * p0[pixelStep]
                                                a2 += wv * p0[pixelStep &* 2]
                                                a3 += wv * p0[pixelStep &* 3]
                                                p0 += tapStep
                                                w += 1
                                                kx &+= 1
                                            }
                                        } else {
                                            var kx = 0
                                            while kx < kernelX {
                                                let p1 = p0 + pixelStep, p2 = p1 + pixelStep, p3 = p2 + pixelStep
                                                var ci = 0
                                                while ci < cin {
                                                    let wv = w[ci]
                                                    a0 += wv * p0[ci]
                                                    a1 += wv * p1[ci]
                                                    a2 += wv * p2[ci]
                                                    a3 += wv * p3[ci]
                                                    ci &+= 1
                                                }
                                                p0 += tapStep
                                                w += cin
                                                kx &+= 1
                                            }
                                        }
                                        ky &+= 1
                                    }
                                    let q = outBlock + ox &* cout
                                    store(a0, q, full: full)
                                    store(a1, q + cout, full: full)
                                    store(a2, q + cout &* 2, full: full)
                                    store(a3, q + cout &* 3, full: full)
                                    ox &+= 4
                                }
                                while ox < outWidth { single(ox); ox &+= 1 }
                            }
                        }
                    }
                }
            }
        }
    }
}
