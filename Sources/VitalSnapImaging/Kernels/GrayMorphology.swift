/// Gray-level max and min filters over a (2r+1)-square window, done separably. A max followed by a min
/// (a closing) erases dark strokes narrower than the window and leaves the background around them: the
/// reader divides by that background to flatten shadows, gradients and uneven backlight.
public enum GrayMorphology {
    /// Row buffers kept between calls, so a caller that keeps one filters without allocating.
    public struct Workspace: Sendable {
        var rows: [UInt8] = []
        var padded: [UInt8] = []
        var forward: [UInt8] = []
        var backward: [UInt8] = []

        public init() {}

        static func resize(_ buffer: inout [UInt8], to count: Int) {
            if buffer.count < count {
                buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
            } else if buffer.count > count {
                buffer.removeLast(buffer.count - count)  // keeps capacity
            }
        }
    }

    public static func closing(_ image: GrayImage, radius: Int, into out: inout GrayImage, scratch: inout GrayImage) {
        var workspace = Workspace()
        closing(image, radius: radius, into: &out, scratch: &scratch, workspace: &workspace)
    }

    public static func closing(
        _ image: GrayImage, radius: Int, into out: inout GrayImage, scratch: inout GrayImage, workspace: inout Workspace
    ) {
        filter(image, radius: radius, takeMax: true, into: &scratch, workspace: &workspace)
        filter(scratch, radius: radius, takeMax: false, into: &out, workspace: &workspace)
    }

    /// A min followed by a max (an opening): erases bright specks narrower than the window and fills bright gaps
    /// in dark strokes, the closing's mirror.
    public static func opening(
        _ image: GrayImage, radius: Int, into out: inout GrayImage, scratch: inout GrayImage, workspace: inout Workspace
    ) {
        filter(image, radius: radius, takeMax: false, into: &scratch, workspace: &workspace)
        filter(scratch, radius: radius, takeMax: true, into: &out, workspace: &workspace)
    }

    public static func filter(_ image: GrayImage, radius: Int, takeMax: Bool, into out: inout GrayImage) {
        var workspace = Workspace()
        filter(image, radius: radius, takeMax: takeMax, into: &out, workspace: &workspace)
    }

    /// The window is clipped at the image's edges (as if the image were padded with values that never win).
    ///
    /// Rows use the van Herk/Gil-Werman method: running maxima forward and backward within blocks of the window's
    /// length, so each pixel costs three comparisons whatever the radius. Columns take the maximum of the
    /// window's rows, one whole row at a time, a loop over contiguous bytes that the compiler vectorizes.
    public static func filter(
        _ image: GrayImage, radius: Int, takeMax: Bool, into out: inout GrayImage, workspace: inout Workspace
    ) {
        let w = image.width, h = image.height
        out.reshape(width: w, height: h)
        guard w > 0, h > 0 else { return }
        let r = max(0, radius)
        guard r > 0 else {
            out.pixels = image.pixels
            return
        }
        let neutral: UInt8 = takeMax ? 0 : 255
        let k = 2 * r + 1, n = w + 2 * r
        Workspace.resize(&workspace.rows, to: w * h)
        Workspace.resize(&workspace.padded, to: n)
        Workspace.resize(&workspace.forward, to: n)
        Workspace.resize(&workspace.backward, to: n)
        // The padding on both sides never wins: 0 for a maximum, 255 for a minimum.
        for i in 0..<r {
            workspace.padded[i] = neutral
            workspace.padded[n - 1 - i] = neutral
        }
        @inline(__always) func pick(_ a: UInt8, _ b: UInt8) -> UInt8 { takeMax ? max(a, b) : min(a, b) }
        image.pixels.withUnsafeBufferPointer { s in
            workspace.rows.withUnsafeMutableBufferPointer { t in
                workspace.padded.withUnsafeMutableBufferPointer { p in
                    workspace.forward.withUnsafeMutableBufferPointer { g in
                        workspace.backward.withUnsafeMutableBufferPointer { b in
                            for y in 0..<h {
                                let row = y &* w
                                for x in 0..<w { p[r &+ x] = s[row &+ x] }
                                var start = 0
                                while start < n {
                                    let end = min(start &+ k, n)
                                    g[start] = p[start]
                                    var i = start &+ 1
                                    while i < end { g[i] = pick(g[i &- 1], p[i]); i &+= 1 }
                                    b[end &- 1] = p[end &- 1]
                                    i = end &- 2
                                    while i >= start { b[i] = pick(b[i &+ 1], p[i]); i &-= 1 }
                                    start = end
                                }
                                // Window [x, x + 2r] in padded coordinates: the backward run from its start and
                                // the forward run to its end cover it between them.
                                for x in 0..<w { t[row &+ x] = pick(b[x], g[x &+ 2 &* r]) }
                            }
                        }
                    }
                }
            }
        }
        workspace.rows.withUnsafeBufferPointer { t in
            out.pixels.withUnsafeMutableBufferPointer { d in
                for y in 0..<h {
                    let y0 = max(0, y - r), y1 = min(h - 1, y + r), row = y &* w
                    for x in 0..<w { d[row &+ x] = t[y0 &* w &+ x] }
                    var j = y0 + 1
                    while j <= y1 {
                        let other = j &* w
                        if takeMax {
                            for x in 0..<w { d[row &+ x] = max(d[row &+ x], t[other &+ x]) }
                        } else {
                            for x in 0..<w { d[row &+ x] = min(d[row &+ x], t[other &+ x]) }
                        }
                        j += 1
                    }
                }
            }
        }
    }
}
