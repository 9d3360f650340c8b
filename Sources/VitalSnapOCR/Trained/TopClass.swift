import Foundation

/// The most probable of a run of logits, and what its probability needs: for `count` logits from `offset`,
/// the first largest (`index`, `maximum`) and `sum`, the sum of `exp((v[k] - maximum) * scale)`, so that the
/// top class's probability under a softmax at temperature `1 / scale` is `1 / sum` and the log normaliser is
/// `maximum * scale + log(sum)`. Shared by the recognizer's columns and the orienter's four turns.
struct TopClass {
    var index: Int
    var maximum: Float
    var sum: Double

    @inline(__always)
    init(_ v: UnsafeBufferPointer<Float>, offset: Int, count: Int, scale: Double = 1) {
        var top = 0
        var maximum = v[offset]
        for k in 1..<count where v[offset + k] > maximum { maximum = v[offset + k]; top = k }
        var sum: Double = 0
        for k in 0..<count { sum += exp(Double(v[offset + k] - maximum) * scale) }
        index = top
        self.maximum = maximum
        self.sum = sum
    }
}
