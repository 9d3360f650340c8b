import Testing
@testable import VitalSnapInference

/// The SIMD convolutions against their scalar twins on random inputs, over sizes, channel counts and window
/// geometries chosen to reach every path: 1x1 images, images with no interior, interiors of a few pixels
/// (four-pixel blocks plus leftovers), channel counts below, at and above multiples of 8, one input channel.
/// Every path of the dense kernel is run, the vector unit's too (`Conv2DKernel.Path.fusedMultiplyAdd`: on a CPU
/// without AVX2 and FMA, the broadcast path again).
struct ConvKernelTests {
    static let channelCounts = [1, 3, 5, 8, 12, 17, 32]

    static let windows: [ConvWindow] = [
        ConvWindow(kernelY: 1, kernelX: 1),
        ConvWindow(kernelY: 3, kernelX: 3, padY: 1, padX: 1),
        ConvWindow(kernelY: 3, kernelX: 3, strideY: 2, strideX: 2, padY: 1, padX: 1),
        ConvWindow(kernelY: 5, kernelX: 3, padY: 2, padX: 1),
        ConvWindow(kernelY: 3, kernelX: 3),
        ConvWindow(kernelY: 3, kernelX: 3, padY: 3, padX: 3),  // padding beyond the kernel's half
        ConvWindow(kernelY: 3, kernelX: 3, padY: 2, padX: 2, dilationY: 2, dilationX: 2),
        ConvWindow(kernelY: 3, kernelX: 3, strideY: 2, strideX: 2, padY: 4, padX: 4, dilationY: 2, dilationX: 2),
        ConvWindow(kernelY: 2, kernelX: 4, strideY: 1, strideX: 3, padY: 0, padX: 2, dilationY: 1, dilationX: 2),
        ConvWindow(kernelY: 1, kernelX: 1, strideY: 2, strideX: 2, padY: 1, padX: 1),
        ConvWindow(kernelY: 7, kernelX: 7, padY: 3, padX: 3),
    ]

    static let sizes: [(Int, Int)] = [(1, 1), (1, 9), (6, 1), (5, 7), (7, 13), (9, 16), (4, 21), (3, 3)]

    @Test func denseConvolutionMatchesItsTwinOverGeometriesAndChannels() {
        var random = SeededRandom(seed: 1)
        var scratch = Conv2DScratch()
        var cases = 0
        for (g, window) in Self.windows.enumerated() {
            for (c, cin) in Self.channelCounts.enumerated() {
                let cout = Self.channelCounts[(c + g) % Self.channelCounts.count]
                let (h, w) = Self.sizes[(g * 3 + c) % Self.sizes.count]
                checkDense(h, w, cin, cout, window, relu: (g + c) % 2 == 0, &random, &scratch)
                cases += 1
            }
        }
        #expect(cases == Self.windows.count * Self.channelCounts.count)
    }

    @Test func denseConvolutionMatchesItsTwinForEveryChannelPair() {
        var random = SeededRandom(seed: 2)
        var scratch = Conv2DScratch()
        let window = ConvWindow(kernelY: 3, kernelX: 3, padY: 1, padX: 1)
        for cin in Self.channelCounts {
            for cout in Self.channelCounts {
                checkDense(5, 11, cin, cout, window, relu: cin % 2 == 0, &random, &scratch)
            }
        }
    }

    @Test func denseConvolutionOnInputsSmallerThanTheKernelGivesNothingOrOnlyBorder() {
        var random = SeededRandom(seed: 3)
        var scratch = Conv2DScratch()
        // No output at all: the dilated kernel is larger than the padded input.
        checkDense(2, 2, 3, 5, ConvWindow(kernelY: 3, kernelX: 3), relu: false, &random, &scratch)
        checkDense(1, 1, 8, 8, ConvWindow(kernelY: 3, kernelX: 3, padY: 1, padX: 1, dilationY: 3, dilationX: 3),
                   relu: false, &random, &scratch)
        // Every output pixel is a border pixel.
        checkDense(2, 3, 12, 17, ConvWindow(kernelY: 5, kernelX: 5, padY: 2, padX: 2), relu: true, &random, &scratch)
    }

    @Test func depthwiseConvolutionMatchesItsTwin() {
        var random = SeededRandom(seed: 4)
        for (g, window) in Self.windows.enumerated() {
            for (c, channels) in Self.channelCounts.enumerated() where (g + c) % 2 == 0 {
                let (h, w) = Self.sizes[(g + c * 5) % Self.sizes.count]
                checkDepthwise(h, w, channels, window, relu: c % 2 == 0, &random)
            }
        }
        // Depthwise goes 32 channels at a time, then 8, then one by one.
        for channels in Self.channelCounts + [37, 43, 64] {
            checkDepthwise(6, 9, channels, ConvWindow(kernelY: 3, kernelX: 3, padY: 1, padX: 1), relu: true, &random)
        }
    }

    @Test func reusingAnOutputOfAnotherShapeGivesTheSameResult() {
        var random = SeededRandom(seed: 5)
        let window = ConvWindow(kernelY: 3, kernelX: 3, padY: 1, padX: 1)
        let small = random.map(height: 4, width: 6, channels: 5), large = random.map(height: 9, width: 14, channels: 5)
        let weights = random.floats(12 * 5 * 9), bias = random.floats(12)
        let packed = Conv2DWeights(weight: weights, bias: bias, outChannels: 12, inChannels: 5, kernelY: 3, kernelX: 3)
        var reused = FeatureMap(height: 30, width: 30, channels: 30, fill: .nan)
        var reusedScratch = Conv2DScratch()
        for input in [large, small, large] {
            for path in Conv2DKernel.Path.allCases {
                var fresh = FeatureMap(), freshScratch = Conv2DScratch()
                Conv2DKernel.run(input, weights: packed, window: window, relu: false, into: &fresh, scratch: &freshScratch, path: path)
                Conv2DKernel.run(input, weights: packed, window: window, relu: false, into: &reused, scratch: &reusedScratch, path: path)
                #expect(relativeDifference(reused, fresh) == 0)
            }
        }
    }

    private func checkDense(_ h: Int, _ w: Int, _ cin: Int, _ cout: Int, _ window: ConvWindow, relu: Bool,
                            _ random: inout SeededRandom, _ scratch: inout Conv2DScratch) {
        let input = random.map(height: h, width: w, channels: cin)
        let scale = 1 / Float(cin * window.kernelY * window.kernelX).squareRoot()
        let weights = random.floats(cout * cin * window.kernelY * window.kernelX).map { $0 * scale }
        let bias = random.floats(cout, in: -0.5...0.5)
        var expected = FeatureMap(), actual = FeatureMap()
        Conv2DReference.run(input, weight: weights, bias: bias, outChannels: cout, window: window, relu: relu, into: &expected)
        let packed = Conv2DWeights(weight: weights, bias: bias, outChannels: cout, inChannels: cin,
                                   kernelY: window.kernelY, kernelX: window.kernelX)
        // Every path the kernel has for these channels, each with the scratch the previous one left.
        for path in Conv2DKernel.Path.allCases {
            Conv2DKernel.run(input, weights: packed, window: window, relu: relu, into: &actual, scratch: &scratch, path: path)
            let difference = relativeDifference(actual, expected)
            #expect(difference < 1e-4, "\(path) \(h)x\(w) \(cin)->\(cout) \(window) relu \(relu)")
        }
        let (oh, ow) = window.outputSize(height: h, width: w)
        #expect(actual.height == oh && actual.width == ow && actual.channels == cout)
        if !relu && expected.values.count >= 40 && cout >= 3 {
            // The case is not trivial: outputs of both signs.
            #expect(expected.values.contains { $0 < 0 } && expected.values.contains { $0 > 0 }, "\(h)x\(w) \(cin)->\(cout) \(window)")
        }
    }

    private func checkDepthwise(_ h: Int, _ w: Int, _ channels: Int, _ window: ConvWindow, relu: Bool,
                                _ random: inout SeededRandom) {
        let input = random.map(height: h, width: w, channels: channels)
        let weights = random.floats(channels * window.kernelY * window.kernelX)
        let bias = random.floats(channels, in: -0.5...0.5)
        var expected = FeatureMap(), actual = FeatureMap()
        DepthwiseConv2DReference.run(input, weight: weights, bias: bias, window: window, relu: relu, into: &expected)
        let packed = DepthwiseConv2DWeights(weight: weights, bias: bias, channels: channels,
                                            kernelY: window.kernelY, kernelX: window.kernelX)
        // The Swift loops and, on a CPU with AVX2 and FMA, the vector unit's (the Swift loops again elsewhere).
        for vectorUnit in [false, true] {
            DepthwiseConv2DKernel.run(input, weights: packed, window: window, relu: relu, into: &actual, vectorUnit: vectorUnit)
            #expect(relativeDifference(actual, expected) < 1e-4, "\(h)x\(w)x\(channels) \(window) relu \(relu) vector unit \(vectorUnit)")
        }
    }
}

/// The window arithmetic the kernels' fast paths rely on, against brute force.
@Test func convWindowTapsAndInteriorMatchBruteForce() {
    for kernel in 1...4 {
        for stride in 1...3 {
            for pad in 0...4 {
                for dilation in 1...3 {
                    for length in 1...9 {
                        let window = ConvWindow(kernelY: kernel, kernelX: kernel, strideY: stride, strideX: stride,
                                                padY: pad, padX: pad, dilationY: dilation, dilationX: dilation)
                        let (outLength, _) = window.outputSize(height: length, width: length)
                        let expectedLength = (0..<40).filter { o in
                            let first = o * stride - pad, last = first + dilation * (kernel - 1)
                            return first >= -pad && last <= length - 1 + pad
                        }.count
                        #expect(outLength == expectedLength)
                        let interior = window.interiorColumns(width: length, outputWidth: outLength)
                        #expect(interior == window.interiorRows(height: length, outputHeight: outLength))
                        for o in 0..<outLength {
                            let inside = (0..<kernel).filter { k in
                                let i = o * stride - pad + k * dilation
                                return i >= 0 && i < length
                            }
                            let taps = window.columnsInside(outputColumn: o, width: length)
                            #expect(Array(taps) == inside)
                            #expect(window.rowsInside(outputRow: o, height: length) == taps)
                            #expect(interior.contains(o) == (inside.count == kernel), "k\(kernel) s\(stride) p\(pad) d\(dilation) n\(length) o\(o)")
                        }
                    }
                }
            }
        }
    }
}
