import Foundation

/// A separable Gaussian blur for the colour canvas's planes, eight pixels at a time.
///
/// The grey renderer's `FloatCanvas.gaussianBlur` is kept as it is (the sample set's bytes depend on it);
/// this one does the same filtering (normalised kernel of radius ceil(3 sigma), edges repeating the border
/// sample) with the symmetric kernel folded and SIMD lanes along the rows, which the training set needs at
/// three planes per scene.
struct PlaneBlur {
    let kernel: [Float]
    var radius: Int { kernel.count / 2 }

    init(sigma: Double) {
        kernel = FloatCanvas.gaussianKernel(sigma: sigma)
    }

    /// Blurs `plane` (width x height, row-major) in place; `scratch` is reused between calls.
    func apply(_ plane: inout [Float], width w: Int, height h: Int, scratch: inout [Float], row: inout [Float]) {
        guard w > 0, h > 0 else { return }
        let r = radius
        let half = Array(kernel[r...])  // k0, k1, ..., kr
        if scratch.count < w * h { scratch = [Float](repeating: 0, count: w * h) }
        if row.count < w + 2 * r + 8 { row = [Float](repeating: 0, count: w + 2 * r + 8) }
        plane.withUnsafeMutableBufferPointer { img in
            scratch.withUnsafeMutableBufferPointer { tmp in
                row.withUnsafeMutableBufferPointer { padded in
                    half.withUnsafeBufferPointer { k in
                        let src = img.baseAddress!, dst = tmp.baseAddress!, pad = padded.baseAddress!
                        // Horizontal: each row padded with its edge samples, then folded taps, 8 wide.
                        for y in 0..<h {
                            let line = src + y * w
                            for i in 0..<r { pad[i] = line[0] }
                            (pad + r).update(from: line, count: w)
                            for i in 0..<(r + 8) { pad[r + w + i] = line[w - 1] }
                            let out = dst + y * w
                            var x = 0
                            while x + 8 <= w {
                                let c = pad + r + x
                                var acc = SIMD8<Float>(repeating: k[0]) * Self.load(c)
                                var i = 1
                                while i <= r {
                                    acc += SIMD8<Float>(repeating: k[i]) * (Self.load(c - i) + Self.load(c + i))
                                    i += 1
                                }
                                Self.store(acc, out + x)
                                x += 8
                            }
                            while x < w {
                                let c = pad + r + x
                                var acc = k[0] * c[0]
                                for i in 1...r { acc += k[i] * (c[-i] + c[i]) }
                                out[x] = acc
                                x += 1
                            }
                        }
                        // Vertical: rows clamped at the top and bottom, 8 columns at a time.
                        for y in 0..<h {
                            let out = src + y * w
                            let center = dst + y * w
                            var x = 0
                            while x + 8 <= w {
                                var acc = SIMD8<Float>(repeating: k[0]) * Self.load(center + x)
                                var i = 1
                                while i <= r {
                                    let up = dst + max(0, y - i) * w + x, down = dst + min(h - 1, y + i) * w + x
                                    acc += SIMD8<Float>(repeating: k[i]) * (Self.load(up) + Self.load(down))
                                    i += 1
                                }
                                Self.store(acc, out + x)
                                x += 8
                            }
                            while x < w {
                                var acc = k[0] * center[x]
                                var i = 1
                                while i <= r {
                                    acc += k[i] * (dst[max(0, y - i) * w + x] + dst[min(h - 1, y + i) * w + x])
                                    i += 1
                                }
                                out[x] = acc
                                x += 1
                            }
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    static func load(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    static func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
    }
}
