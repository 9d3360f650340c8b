/// The scalar twin of `AddKernel`, in nested loops.
enum AddReference {
    static func run(_ a: FeatureMap, _ b: FeatureMap, relu: Bool, into output: inout FeatureMap) {
        output.reshape(height: a.height, width: a.width, channels: a.channels)
        for y in 0..<a.height {
            for x in 0..<a.width {
                for c in 0..<a.channels {
                    let sum = a[y, x, c] + b[y, x, c]
                    output[y, x, c] = relu ? max(sum, 0) : sum
                }
            }
        }
    }
}
