/// The scalar twin of `ReLUKernel`, in nested loops.
enum ReLUReference {
    static func run(_ input: FeatureMap, into output: inout FeatureMap) {
        output.reshape(height: input.height, width: input.width, channels: input.channels)
        for y in 0..<input.height {
            for x in 0..<input.width {
                for c in 0..<input.channels { output[y, x, c] = max(input[y, x, c], 0) }
            }
        }
    }
}
