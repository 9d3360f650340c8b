/// A depthwise convolution's weights (groups = in = out channels) repacked once for `DepthwiseConv2DKernel`:
/// `[ky][kx][channel]`, so that one tap's weights for neighbouring channels are contiguous like the HWC input.
struct DepthwiseConv2DWeights: Sendable {
    let channels: Int
    let kernelY: Int
    let kernelX: Int
    let weights: [Float]
    let bias: [Float]

    /// From PyTorch's layout: `weight` is [channels][1][kernelY][kernelX], `bias` [channels].
    init(weight: [Float], bias: [Float], channels: Int, kernelY: Int, kernelX: Int) {
        precondition(channels >= 1 && kernelY >= 1 && kernelX >= 1, "empty convolution")
        precondition(weight.count == channels * kernelY * kernelX,
                     "\(weight.count) weights for \(channels)x1x\(kernelY)x\(kernelX)")
        precondition(bias.count == channels, "\(bias.count) biases for \(channels) channels")
        self.channels = channels
        self.kernelY = kernelY
        self.kernelX = kernelX
        let taps = kernelY * kernelX
        var packed = [Float](repeating: 0, count: taps * channels)
        for c in 0..<channels {
            for tap in 0..<taps { packed[tap * channels + c] = weight[c * taps + tap] }
        }
        weights = packed
        self.bias = bias
    }
}
