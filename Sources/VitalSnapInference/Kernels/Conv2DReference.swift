/// The scalar twin of `Conv2DKernel`: dense convolution straight from PyTorch's weight layout, in nested loops.
enum Conv2DReference {
    /// `weight` is [outChannels][input.channels][kernelY][kernelX], `bias` [outChannels].
    static func run(_ input: FeatureMap, weight: [Float], bias: [Float], outChannels: Int, window: ConvWindow,
                    relu: Bool, into output: inout FeatureMap) {
        let cin = input.channels, kh = window.kernelY, kw = window.kernelX
        precondition(weight.count == outChannels * cin * kh * kw && bias.count == outChannels, "weights of another shape")
        let (outHeight, outWidth) = window.outputSize(height: input.height, width: input.width)
        output.reshape(height: outHeight, width: outWidth, channels: outChannels)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                for co in 0..<outChannels {
                    var sum = bias[co]
                    for ci in 0..<cin {
                        for ky in 0..<kh {
                            let iy = oy * window.strideY - window.padY + ky * window.dilationY
                            guard iy >= 0 && iy < input.height else { continue }
                            for kx in 0..<kw {
                                let ix = ox * window.strideX - window.padX + kx * window.dilationX
                                guard ix >= 0 && ix < input.width else { continue }
                                sum += weight[((co * cin + ci) * kh + ky) * kw + kx] * input[iy, ix, ci]
                            }
                        }
                    }
                    output[oy, ox, co] = relu ? max(sum, 0) : sum
                }
            }
        }
    }
}
