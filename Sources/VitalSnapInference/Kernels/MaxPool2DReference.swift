/// The scalar twin of `MaxPool2DKernel`, in nested loops.
enum MaxPool2DReference {
    static func run(_ input: FeatureMap, kernelY: Int, kernelX: Int, strideY: Int, strideX: Int,
                    into output: inout FeatureMap) {
        let window = ConvWindow(kernelY: kernelY, kernelX: kernelX, strideY: strideY, strideX: strideX)
        let (outHeight, outWidth) = window.outputSize(height: input.height, width: input.width)
        output.reshape(height: outHeight, width: outWidth, channels: input.channels)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                for c in 0..<input.channels {
                    var m = -Float.infinity
                    for ky in 0..<kernelY {
                        for kx in 0..<kernelX {
                            m = max(m, input[oy * strideY + ky, ox * strideX + kx, c])
                        }
                    }
                    output[oy, ox, c] = m
                }
            }
        }
    }
}
