import VitalSnapImaging

extension PixelRect {
    /// The part of a `width` x `height` frame that holds `lines`: the box of their corners reaching `margin`
    /// digit heights of the tallest line beyond it, clipped to the frame; nil without lines, or where it would
    /// be empty. The detector's second look (`ModelLineLocator.Configuration.zoomRegion`) and the orienter's
    /// view (`OrienterConvention.region`) are such parts.
    public init?(around lines: [TextLine], margin: Double, width: Int, height: Int) {
        guard let tallest = lines.lazy.map({ $0.digitHeight }).max() else { return nil }
        let m = margin * tallest
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for line in lines {
            for p in line.quad.corners {
                x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y)
            }
        }
        let left = max(0, Int((x0 - m).rounded(.down))), top = max(0, Int((y0 - m).rounded(.down)))
        let right = min(width, Int((x1 + m).rounded(.up))), bottom = min(height, Int((y1 + m).rounded(.up)))
        guard right > left, bottom > top else { return nil }
        self.init(x: left, y: top, width: right - left, height: bottom - top)
    }
}
