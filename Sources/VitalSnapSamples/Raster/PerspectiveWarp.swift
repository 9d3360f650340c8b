/// Places a rendered layer into a larger picture through a homography (inverse mapping: every destination
/// pixel looks up where it comes from, so there are no holes, and bilinear sampling keeps edges smooth).
extension FloatCanvas {
    /// Composites `layer` (grey values) with its coverage `mask` (0...1, same size) onto this canvas, where
    /// `transform` maps layer coordinates to canvas coordinates.
    ///
    /// The layer should be rendered at about the destination's scale or somewhat larger: bilinear sampling
    /// does not average over big reductions.
    public mutating func composite(_ layer: FloatCanvas, mask: FloatCanvas, transform: PlaneHomography) {
        precondition(layer.width == mask.width && layer.height == mask.height, "layer and mask sizes differ")
        guard layer.width > 1, layer.height > 1 else { return }
        let outline = QuadCorners(x: 0, y: 0, width: Double(layer.width), height: Double(layer.height))
            .map(transform.apply)
        let b = outline.bounds
        let x0 = max(0, Int(b.minX.rounded(.down))), x1 = min(width, Int(b.maxX.rounded(.up)))
        let y0 = max(0, Int(b.minY.rounded(.down))), y1 = min(height, Int(b.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let inv = transform.inverse.m
        let lw = layer.width, lh = layer.height
        let w = width
        values.withUnsafeMutableBufferPointer { dst in
            layer.values.withUnsafeBufferPointer { src in
                mask.values.withUnsafeBufferPointer { alpha in
                    for y in y0..<y1 {
                        let dy = Double(y) + 0.5
                        for x in x0..<x1 {
                            let dx = Double(x) + 0.5
                            let q = inv[6] * dx + inv[7] * dy + inv[8]
                            guard q > 0 else { continue }
                            // Source position, shifted so that integer values fall on pixel centres.
                            let sx = (inv[0] * dx + inv[1] * dy + inv[2]) / q - 0.5
                            let sy = (inv[3] * dx + inv[4] * dy + inv[5]) / q - 0.5
                            guard sx > -1, sy > -1, sx < Double(lw), sy < Double(lh) else { continue }
                            let ix = Int(sx.rounded(.down)), iy = Int(sy.rounded(.down))
                            let tx = Float(sx - Double(ix)), ty = Float(sy - Double(iy))
                            var v: Float = 0, a: Float = 0
                            // Taps outside the layer count as transparent, which anti-aliases its border.
                            for (ox, oy, wt) in [(0, 0, (1 - tx) * (1 - ty)), (1, 0, tx * (1 - ty)),
                                                 (0, 1, (1 - tx) * ty), (1, 1, tx * ty)] {
                                let px = ix + ox, py = iy + oy
                                guard px >= 0, py >= 0, px < lw, py < lh, wt > 0 else { continue }
                                let al = alpha[py * lw + px] * wt
                                v += src[py * lw + px] * al
                                a += al
                            }
                            guard a > 0 else { continue }
                            // Premultiplied: v is already weighted by coverage.
                            let i = y * w + x
                            dst[i] = dst[i] * (1 - a) + v
                        }
                    }
                }
            }
        }
    }
}
