/// The scalar twin of `ConcatKernel`, in nested loops.
enum ConcatReference {
    static func run(_ inputs: [FeatureMap], into output: inout FeatureMap) {
        let height = inputs[0].height, width = inputs[0].width
        output.reshape(height: height, width: width, channels: inputs.reduce(0) { $0 + $1.channels })
        for y in 0..<height {
            for x in 0..<width {
                var offset = 0
                for input in inputs {
                    for c in 0..<input.channels { output[y, x, offset + c] = input[y, x, c] }
                    offset += input.channels
                }
            }
        }
    }
}
