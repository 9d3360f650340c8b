import Testing
@testable import VitalSnapInference

/// Pooling, upsampling, concatenation, sums and ReLU against their scalar twins on random inputs.
struct LayerKernelTests {
    // Below, at and above multiples of 8, and past 32 (the widest channel chunk) by less than 8 and by more.
    static let channelCounts = [1, 3, 5, 8, 12, 17, 32, 37, 43]
    static let sizes: [(Int, Int)] = [(1, 1), (1, 6), (5, 1), (4, 4), (7, 9), (6, 13), (11, 5)]

    @Test func maxPoolingMatchesItsTwin() {
        var random = SeededRandom(seed: 11)
        let windows: [(Pair2D, Pair2D)] = [
            (Pair2D(2), Pair2D(2)), (Pair2D(y: 2, x: 1), Pair2D(y: 2, x: 1)), (Pair2D(3), Pair2D(1)),
            (Pair2D(y: 3, x: 2), Pair2D(y: 2, x: 3)), (Pair2D(1), Pair2D(1)), (Pair2D(2), Pair2D(3)),
        ]
        var nonEmpty = 0
        for (k, (kernel, stride)) in windows.enumerated() {
            for (c, channels) in Self.channelCounts.enumerated() {
                let (h, w) = Self.sizes[(k * 2 + c) % Self.sizes.count]
                let input = random.map(height: h, width: w, channels: channels)
                var expected = FeatureMap(), actual = FeatureMap()
                MaxPool2DReference.run(input, kernelY: kernel.y, kernelX: kernel.x, strideY: stride.y, strideX: stride.x, into: &expected)
                MaxPool2DKernel.run(input, kernelY: kernel.y, kernelX: kernel.x, strideY: stride.y, strideX: stride.x, into: &actual)
                #expect(actual == expected, "\(h)x\(w)x\(channels) kernel \(kernel) stride \(stride)")
                if !expected.values.isEmpty { nonEmpty += 1 }
            }
        }
        #expect(nonEmpty > 20)
    }

    @Test func upsamplingMatchesItsTwin() {
        var random = SeededRandom(seed: 12)
        for (f, factor) in [Pair2D(1), Pair2D(2), Pair2D(y: 2, x: 1), Pair2D(y: 1, x: 3), Pair2D(y: 3, x: 2)].enumerated() {
            for (c, channels) in Self.channelCounts.enumerated() {
                let (h, w) = Self.sizes[(f + c) % Self.sizes.count]
                let input = random.map(height: h, width: w, channels: channels)
                var expected = FeatureMap(), actual = FeatureMap()
                UpsampleReference.run(input, factorY: factor.y, factorX: factor.x, into: &expected)
                UpsampleKernel.run(input, factorY: factor.y, factorX: factor.x, into: &actual)
                #expect(actual == expected, "\(h)x\(w)x\(channels) factor \(factor)")
                #expect(actual.height == h * factor.y && actual.width == w * factor.x)
            }
        }
    }

    @Test func concatenationMatchesItsTwin() {
        var random = SeededRandom(seed: 13)
        let groups = [[1], [3, 5], [8, 12, 17], [32, 1], [5, 8, 3, 12]]
        for (g, channels) in groups.enumerated() {
            for (h, w) in Self.sizes where (h + w + g) % 2 == 0 || h == 1 {
                let inputs = channels.map { random.map(height: h, width: w, channels: $0) }
                var expected = FeatureMap(), actual = FeatureMap(height: 3, width: 3, channels: 40, fill: .nan)
                ConcatReference.run(inputs, into: &expected)
                ConcatKernel.run(inputs, into: &actual)
                #expect(actual == expected, "\(h)x\(w) channels \(channels)")
                #expect(expected.channels == channels.reduce(0, +))
            }
        }
    }

    @Test func sumsAndReLUMatchTheirTwins() {
        var random = SeededRandom(seed: 14)
        for (c, channels) in Self.channelCounts.enumerated() {
            for (s, (h, w)) in Self.sizes.enumerated() where (c + s) % 2 == 0 {
                let a = random.map(height: h, width: w, channels: channels)
                let b = random.map(height: h, width: w, channels: channels)
                for relu in [false, true] {
                    var expected = FeatureMap(), actual = FeatureMap()
                    AddReference.run(a, b, relu: relu, into: &expected)
                    AddKernel.run(a, b, relu: relu, into: &actual)
                    #expect(actual == expected, "\(h)x\(w)x\(channels) relu \(relu)")
                }
                var expected = FeatureMap(), actual = FeatureMap()
                ReLUReference.run(a, into: &expected)
                ReLUKernel.run(a, into: &actual)
                #expect(actual == expected, "\(h)x\(w)x\(channels)")
                #expect(expected.values.allSatisfy { $0 >= 0 })
                #expect(a.values.contains { $0 < 0 } == expected.values.contains { $0 == 0 })
            }
        }
    }
}
