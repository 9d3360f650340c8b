/// The scalar twin of `UpsampleKernel`, in nested loops.
enum UpsampleReference {
    static func run(_ input: FeatureMap, factorY: Int, factorX: Int, into output: inout FeatureMap) {
        output.reshape(height: input.height * factorY, width: input.width * factorX, channels: input.channels)
        for oy in 0..<output.height {
            for ox in 0..<output.width {
                for c in 0..<input.channels {
                    output[oy, ox, c] = input[oy / factorY, ox / factorX, c]
                }
            }
        }
    }
}
