/// Channel concatenation of HWC feature maps of one height and width: each input's channels go to a slice of
/// every output pixel's channels. `copy(_:into:channelOffset:)` writes one input's slice into an output already
/// shaped for all of them, so a caller concatenates without building an array of inputs.
enum ConcatKernel {
    static func run(_ inputs: [FeatureMap], into output: inout FeatureMap) {
        precondition(!inputs.isEmpty, "concatenation of nothing")
        let height = inputs[0].height, width = inputs[0].width
        output.reshape(height: height, width: width, channels: inputs.reduce(0) { $0 + $1.channels })
        var offset = 0
        for input in inputs {
            copy(input, into: &output, channelOffset: offset)
            offset += input.channels
        }
    }

    /// Writes `input`'s channels to channels `channelOffset ..< channelOffset + input.channels` of `output`.
    static func copy(_ input: FeatureMap, into output: inout FeatureMap, channelOffset: Int) {
        precondition(input.height == output.height && input.width == output.width,
                     "concatenation of a \(input.height)x\(input.width) map into a \(output.height)x\(output.width) one")
        precondition(channelOffset >= 0 && channelOffset + input.channels <= output.channels,
                     "channels \(channelOffset)..<\(channelOffset + input.channels) outside \(output.channels)")
        precondition(input.values.count == input.height * input.width * input.channels, "a malformed input map")
        let pixels = input.height &* input.width, channels = input.channels, outChannels = output.channels
        guard pixels > 0, channels > 0 else { return }
        input.values.withUnsafeBufferPointer { inBuffer in
            output.values.withUnsafeMutableBufferPointer { outBuffer in
                var src = inBuffer.baseAddress!, dst = outBuffer.baseAddress! + channelOffset
                if channels == outChannels {
                    dst.update(from: src, count: pixels &* channels)
                    return
                }
                for _ in 0..<pixels {
                    CopyKernel.copy(src, to: dst, count: channels)
                    src += channels
                    dst += outChannels
                }
            }
        }
    }
}
