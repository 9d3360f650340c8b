/// A dense convolution's weights (groups = 1) repacked once for `Conv2DKernel`: output channels in blocks of 8,
/// each block's weights contiguous in the order the kernel reads them, `[block][ky][kx][ci]` of `SIMD8<Float>`
/// (one lane per output channel of the block), and the bias likewise per block. Lanes past the last output
/// channel hold zeros.
struct Conv2DWeights: Sendable {
    let inChannels: Int
    let outChannels: Int
    let kernelY: Int
    let kernelX: Int
    let weights: [SIMD8<Float>]
    let bias: [SIMD8<Float>]

    var blocks: Int { bias.count }

    /// From PyTorch's layout: `weight` is [outChannels][inChannels][kernelY][kernelX], `bias` [outChannels].
    init(weight: [Float], bias: [Float], outChannels: Int, inChannels: Int, kernelY: Int, kernelX: Int) {
        precondition(outChannels >= 1 && inChannels >= 1 && kernelY >= 1 && kernelX >= 1, "empty convolution")
        precondition(weight.count == outChannels * inChannels * kernelY * kernelX,
                     "\(weight.count) weights for \(outChannels)x\(inChannels)x\(kernelY)x\(kernelX)")
        precondition(bias.count == outChannels, "\(bias.count) biases for \(outChannels) output channels")
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.kernelY = kernelY
        self.kernelX = kernelX
        let blocks = (outChannels + 7) / 8
        let taps = kernelY * kernelX
        var packed = [SIMD8<Float>](repeating: .zero, count: blocks * taps * inChannels)
        for co in 0..<outChannels {
            let block = co / 8, lane = co % 8
            for ci in 0..<inChannels {
                for tap in 0..<taps {
                    packed[(block * taps + tap) * inChannels + ci][lane] = weight[(co * inChannels + ci) * taps + tap]
                }
            }
        }
        var packedBias = [SIMD8<Float>](repeating: .zero, count: blocks)
        for co in 0..<outChannels { packedBias[co / 8][co % 8] = bias[co] }
        weights = packed
        self.bias = packedBias
    }
}
