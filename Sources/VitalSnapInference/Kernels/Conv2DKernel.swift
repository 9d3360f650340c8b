import CVectorKernels

/// Dense 2-D convolution (groups = 1) over HWC feature maps, with the bias and an optional ReLU fused into the
/// store: zero padding, any stride and dilation.
///
/// Output channels go in blocks of 8, one `SIMD8<Float>` accumulator per output pixel: each input value,
/// broadcast to all lanes, is multiplied with the 8 weights of its tap and channel and added. A row of output
/// pixels runs block by block (a block's weights stay in L1): its interior, where every tap lies inside the
/// input, four pixels at a time without bounds checks (the four share each weight load), and the border and
/// leftover pixels one by one, clipping the taps to the input. Kernel rows outside the input are skipped per
/// output row. Pointer arithmetic wraps (`&+`): offsets are bounded by the map sizes checked on entry.
///
/// Swift compiles for baseline x86-64 (SSE2): without FMA, a multiply-add costs a multiply and an add, and
/// broadcasting a scalar costs a shuffle on the same ports. Three ways to feed the interior (`Path`):
/// - `broadcast`: scalars are broadcast as they are read.
/// - `expandedRows`: the input rows the current output row reads are first copied with every value broadcast
///   to four lanes, into `scratch` slots that later output rows reuse (slot = row modulo the rows the kernel
///   spans); the multiply then takes its operand from memory and no shuffle is left in the loop: 10-20% faster
///   where a value feeds many multiply-adds, slower where it feeds few (1x1 kernels with few output channels).
/// - `fusedMultiplyAdd`, the default on a CPU with AVX2 and FMA (most x86-64 since 2013, found once at run time:
///   `hasVectorUnit`): the interior in C (`CVectorKernels`, whose functions alone are compiled for those
///   instructions), a block's 8 lanes in one register, eight pixels at a time (then four) sharing each weight
///   load, each scalar broadcast straight from memory, one fused multiply-add per tap and channel: the same
///   sums in the same order, each rounded once instead of twice. On the 441 fuel pumps `vitalsnap batch` took
///   a quarter less CPU time, every reading the same (docs/performance.md).
///
/// On the Swift paths a single input channel (the first layer) has interior loops of its own, over the kernel
/// columns without a channel loop of one. The border and leftover pixels stay in Swift on every path (one C
/// call per pixel measured slower).
enum Conv2DKernel {
    enum Path: CaseIterable {
        case broadcast, expandedRows
        /// The interior in `CVectorKernels` with AVX2 and FMA; on a CPU without them, `broadcast`.
        case fusedMultiplyAdd
    }

    /// Whether this CPU runs `Path.fusedMultiplyAdd` (AVX2 and FMA, x86-64).
    static let hasVectorUnit = vs_cpu_has_avx2_fma() != 0

    /// The path `run` takes unless told otherwise: the vector unit's where the CPU has one; else expanded rows
    /// where each input value feeds enough multiply-adds to pay for broadcasting it once into memory (measured on
    /// this project's 2-core x86-64 box: 1x1 with 16 output channels or 3x3 stride 2 with 8 are faster
    /// broadcast, 1x1 with 32 or 3x3 with 8 expanded).
    static func defaultPath(weights: Conv2DWeights, window: ConvWindow) -> Path {
        if hasVectorUnit { return .fusedMultiplyAdd }
        let work = weights.blocks * 8 * window.kernelY * window.kernelX
        return work >= 32 * window.strideY * window.strideX ? .expandedRows : .broadcast
    }

    static func run(_ input: FeatureMap, weights: Conv2DWeights, window: ConvWindow, relu: Bool,
                    into output: inout FeatureMap, scratch: inout Conv2DScratch, path: Path? = nil) {
        precondition(input.channels == weights.inChannels,
                     "the input has \(input.channels) channels, the convolution takes \(weights.inChannels)")
        precondition(window.kernelY == weights.kernelY && window.kernelX == weights.kernelX,
                     "the window's kernel is not the weights' kernel")
        precondition(input.values.count == input.height * input.width * input.channels, "a malformed input map")
        let chosen = path ?? defaultPath(weights: weights, window: window)
        let expand = chosen == .expandedRows
        let fused = chosen == .fusedMultiplyAdd && hasVectorUnit
        let (outHeight, outWidth) = window.outputSize(height: input.height, width: input.width)
        let cin = weights.inChannels, cout = weights.outChannels
        output.reshape(height: outHeight, width: outWidth, channels: cout)
        guard outHeight > 0, outWidth > 0 else { return }

        let height = input.height, width = input.width
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
        // Expanded rows: slot s holds input row slotRows[s], s = row modulo the rows one output row spans.
        let span = dilationY &* (window.kernelY &- 1) &+ 1
        scratch.prepare(count: expand ? span &* rowStride : 1, slots: span)

        input.values.withUnsafeBufferPointer { inBuffer in
        scratch.values.withUnsafeMutableBufferPointer { scratchBuffer in
        scratch.slotRows.withUnsafeMutableBufferPointer { slotRows in
        weights.weights.withUnsafeBufferPointer { weightBuffer in
        weights.bias.withUnsafeBufferPointer { biasBuffer in
        output.values.withUnsafeMutableBufferPointer { outBuffer in
            let src = inBuffer.baseAddress!, dst = outBuffer.baseAddress!
            let expanded = scratchBuffer.baseAddress!
            let allWeights = weightBuffer.baseAddress!

            @inline(__always) func wide(_ x: SIMD4<Float>) -> SIMD8<Float> { SIMD8(lowHalf: x, highHalf: x) }

            for oy in 0..<outHeight {
                let rows = window.rowsInside(outputRow: oy, height: height)
                let rowOrigin = oy &* strideY &- padY
                let outRow = dst + oy &* outWidth &* cout
                let firstSlot = ((rowOrigin % span) &+ span) % span  // the slot of kernel row 0
                @inline(__always) func slot(_ ky: Int) -> Int {
                    let s = firstSlot &+ ky &* dilationY
                    return s >= span ? s &- span : s
                }
                if expand {
                    for ky in rows {
                        let iy = rowOrigin &+ ky &* dilationY
                        if slotRows[slot(ky)] != iy {
                            let from = src + iy &* rowStride, to = expanded + slot(ky) &* rowStride
                            var i = 0
                            while i < rowStride { to[i] = SIMD4(repeating: from[i]); i &+= 1 }
                            slotRows[slot(ky)] = iy
                        }
                    }
                }

                for block in 0..<blocks {
                    let bias = biasBuffer[block]
                    let blockWeights = allWeights + block &* blockStride
                    let lanes = block &+ 1 < blocks ? 8 : lastLanes
                    let outBlock = outRow + block &* 8

                    // Stores an accumulator (after the ReLU): all 8 lanes, or the lanes that are output channels.
                    @inline(__always) func store(_ value: SIMD8<Float>, _ to: UnsafeMutablePointer<Float>) {
                        let v = relu ? SIMDMath.relu(value) : value
                        if lanes == 8 {
                            UnsafeMutableRawPointer(to).storeBytes(of: v, as: SIMD8<Float>.self)
                        } else {
                            var lane = 0
                            while lane < lanes { to[lane] = v[lane]; lane &+= 1 }
                        }
                    }

                    // One output pixel, taps clipped to the input, read from the input itself.
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
                        store(acc, outBlock + ox &* cout)
                    }

                    // Four interior output pixels from `ox` on, scalars broadcast as they are read.
                    @inline(__always) func fourBroadcast(_ ox: Int) {
                        var a0 = bias, a1 = bias, a2 = bias, a3 = bias
                        let columnOrigin = ox &* strideX &- padX
                        var ky = rows.lowerBound
                        while ky < rows.upperBound {
                            var w = blockWeights + ky &* kernelX &* cin
                            var p0 = src + ((rowOrigin &+ ky &* dilationY) &* rowStride &+ columnOrigin &* cin)
                            var kx = 0
                            if cin == 1 {
                                while kx < kernelX {
                                    let p1 = p0 + pixelStep, p2 = p1 + pixelStep, p3 = p2 + pixelStep
                                    let wv = w[kx]
                                    a0 += wv * p0[0]
                                    a1 += wv * p1[0]
                                    a2 += wv * p2[0]
                                    a3 += wv * p3[0]
                                    p0 += tapStep
                                    kx &+= 1
                                }
                            } else {
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
                        store(a0, q)
                        store(a1, q + cout)
                        store(a2, q + cout &* 2)
                        store(a3, q + cout &* 3)
                    }

                    // Four interior output pixels from `ox` on, read from the expanded rows.
                    @inline(__always) func fourExpanded(_ ox: Int) {
                        var a0 = bias, a1 = bias, a2 = bias, a3 = bias
                        let columnOrigin = ox &* strideX &- padX
                        var ky = rows.lowerBound
                        while ky < rows.upperBound {
                            var w = blockWeights + ky &* kernelX &* cin
                            var p0 = UnsafePointer(expanded + (slot(ky) &* rowStride &+ columnOrigin &* cin))
                            var kx = 0
                            if cin == 1 {
                                while kx < kernelX {
                                    let p1 = p0 + pixelStep, p2 = p1 + pixelStep, p3 = p2 + pixelStep
                                    let wv = w[kx]
                                    a0 += wv * wide(p0[0])
                                    a1 += wv * wide(p1[0])
                                    a2 += wv * wide(p2[0])
                                    a3 += wv * wide(p3[0])
                                    p0 += tapStep
                                    kx &+= 1
                                }
                            } else {
                                while kx < kernelX {
                                    let p1 = p0 + pixelStep, p2 = p1 + pixelStep, p3 = p2 + pixelStep
                                    var ci = 0
                                    while ci < cin {
                                        let wv = w[ci]
                                        a0 += wv * wide(p0[ci])
                                        a1 += wv * wide(p1[ci])
                                        a2 += wv * wide(p2[ci])
                                        a3 += wv * wide(p3[ci])
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
                        store(a0, q)
                        store(a1, q + cout)
                        store(a2, q + cout &* 2)
                        store(a3, q + cout &* 3)
                    }

                    var ox = 0
                    while ox < interior.lowerBound { single(ox); ox &+= 1 }
                    if fused {
                        var lanesOfBias = bias
                        ox = withUnsafePointer(to: &lanesOfBias) { b in
                            vs_conv2d_interior_avx2(
                                src, outBlock, UnsafeRawPointer(blockWeights).assumingMemoryBound(to: Float.self),
                                UnsafeRawPointer(b).assumingMemoryBound(to: Float.self), rowOrigin, rows.lowerBound,
                                rows.upperBound, dilationY, rowStride, kernelX, cin, strideX, padX, tapStep, pixelStep,
                                ox, interior.upperBound, cout, Int32(lanes), relu ? 1 : 0)
                        }
                    } else if expand {
                        while ox &+ 4 <= interior.upperBound { fourExpanded(ox); ox &+= 4 }
                    } else {
                        while ox &+ 4 <= interior.upperBound { fourBroadcast(ox); ox &+= 4 }
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
    }
}
