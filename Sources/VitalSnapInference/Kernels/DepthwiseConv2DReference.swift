/// The scalar twin of `DepthwiseConv2DKernel`: each channel convolved with its own kernel, straight from
/// PyTorch's weight layout, in nested loops.
enum DepthwiseConv2DReference {
    /// `weight` is [channels][1][kernelY][kernelX], `bias` [channels], channels = `input.channels`.
    static func run(_ input: FeatureMap, weight: [Float], bias: [Float], window: ConvWindow, relu: Bool,
                    into output: inout FeatureMap) {
        let channels = input.channels, kh = window.kernelY, kw = window.kernelX
        precondition(weight.count == channels * kh * kw && bias.count == channels, "weights of another shape")
        let (outHeight, outWidth) = window.outputSize(height: input.height, width: input.width)
        output.reshape(height: outHeight, width: outWidth, channels: channels)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                for c in 0..<channels {
                    var sum = bias[c]
                    for ky in 0..<kh {
                        let iy = oy * window.strideY - window.padY + ky * window.dilationY
                        guard iy >= 0 && iy < input.height else { continue }
                        for kx in 0..<kw {
                            let ix = ox * window.strideX - window.padX + kx * window.dilationX
                            guard ix >= 0 && ix < input.width else { continue }
                            sum += weight[(c * kh + ky) * kw + kx] * input[iy, ix, c]
                        }
                    }
                    output[oy, ox, c] = relu ? max(sum, 0) : sum
                }
            }
        }
    }
}
