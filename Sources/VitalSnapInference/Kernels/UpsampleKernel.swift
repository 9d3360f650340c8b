/// Nearest-neighbour upsampling by integer factors over HWC feature maps: output pixel (oy, ox) is input pixel
/// (oy / factorY, ox / factorX). Each output row made from its input row is written once, pixel by pixel, and
/// copied whole to the `factorY - 1` rows below it.
enum UpsampleKernel {
    static func run(_ input: FeatureMap, factorY: Int, factorX: Int, into output: inout FeatureMap) {
        precondition(factorY >= 1 && factorX >= 1, "upsampling factors must be at least 1")
        precondition(input.values.count == input.height * input.width * input.channels, "a malformed input map")
        let channels = input.channels, outWidth = input.width &* factorX
        output.reshape(height: input.height &* factorY, width: outWidth, channels: channels)
        guard !output.values.isEmpty else { return }
        let outRowLength = outWidth &* channels

        input.values.withUnsafeBufferPointer { inBuffer in
            output.values.withUnsafeMutableBufferPointer { outBuffer in
                let src = inBuffer.baseAddress!, dst = outBuffer.baseAddress!
                for y in 0..<input.height {
                    let first = dst + y &* factorY &* outRowLength
                    var out = first
                    var pixel = src + y &* input.width &* channels
                    for _ in 0..<input.width {
                        for _ in 0..<factorX {
                            CopyKernel.copy(pixel, to: out, count: channels)
                            out += channels
                        }
                        pixel += channels
                    }
                    for row in 1..<factorY {
                        (first + row &* outRowLength).update(from: first, count: outRowLength)
                    }
                }
            }
        }
    }
}
