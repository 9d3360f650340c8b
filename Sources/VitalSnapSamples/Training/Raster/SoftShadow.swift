/// A soft shadow (a blurred outline darkening what is under it), computed at a quarter of the resolution:
/// its blur is wide, so the detail lost does not show, and the blur costs a sixteenth.
extension ColorCanvas {
    mutating func addSoftShadow(outline: [CanvasPoint], sigma: Double, amount: Float) {
        guard amount > 0, outline.count >= 3 else { return }
        let f = 4.0
        let pad = Int((3 * sigma / f).rounded(.up)) + 2
        let small = outline.map { CanvasPoint($0.x / f, $0.y / f) }
        let lowWidth = (width + 3) / 4, lowHeight = (height + 3) / 4
        guard var mask = CoverageMask(covering: [[small]], canvasWidth: lowWidth, canvasHeight: lowHeight, padding: pad) else { return }
        mask.blur(sigma: sigma / f)
        // Darken the full-resolution pixels over the mask, sampling it bilinearly.
        let mw = mask.width, mh = mask.height
        let cov = mask.coverage.values
        let x0 = mask.x0 * 4, y0 = mask.y0 * 4
        let x1 = min(width, (mask.x0 + mw) * 4), y1 = min(height, (mask.y0 + mh) * 4)
        guard x1 > x0, y1 > y0 else { return }
        for y in y0..<y1 {
            let sy = (Double(y) + 0.5) / f - 0.5 - Double(mask.y0)
            let iy = max(0, min(mh - 1, Int(sy.rounded(.down)))), jy = min(mh - 1, iy + 1)
            let ty = Float(min(1, max(0, sy - Double(iy))))
            for x in x0..<x1 {
                let sx = (Double(x) + 0.5) / f - 0.5 - Double(mask.x0)
                let ix = max(0, min(mw - 1, Int(sx.rounded(.down)))), jx = min(mw - 1, ix + 1)
                let tx = Float(min(1, max(0, sx - Double(ix))))
                let top = cov[iy * mw + ix] + (cov[iy * mw + jx] - cov[iy * mw + ix]) * tx
                let bottom = cov[jy * mw + ix] + (cov[jy * mw + jx] - cov[jy * mw + ix]) * tx
                let m = top + (bottom - top) * ty
                guard m > 0.002 else { continue }
                let k = 1 - amount * m
                let i = y * width + x
                red.values[i] *= k
                green.values[i] *= k
                blue.values[i] *= k
            }
        }
    }
}
