/// Gray-level max and min filters over a (2r+1)-square window, done separably. A max followed by a min
/// (a closing) erases dark strokes narrower than the window and leaves the background around them: the
/// reader divides by that background to flatten shadows, gradients and uneven backlight.
public enum GrayMorphology {
    public static func closing(_ image: GrayImage, radius: Int, into out: inout GrayImage, scratch: inout GrayImage) {
        filter(image, radius: radius, takeMax: true, into: &scratch)
        filter(scratch, radius: radius, takeMax: false, into: &out)
    }

    public static func filter(_ image: GrayImage, radius: Int, takeMax: Bool, into out: inout GrayImage) {
        let w = image.width, h = image.height
        var rows = GrayImage(width: w, height: h)
        out.reshape(width: w, height: h)
        guard w > 0, h > 0 else { return }
        image.pixels.withUnsafeBufferPointer { s in
            rows.pixels.withUnsafeMutableBufferPointer { t in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        let x0 = max(0, x - radius), x1 = min(w - 1, x + radius)
                        var v = s[row + x0]
                        var i = x0 + 1
                        while i <= x1 {
                            v = takeMax ? max(v, s[row + i]) : min(v, s[row + i])
                            i += 1
                        }
                        t[row + x] = v
                    }
                }
            }
        }
        rows.pixels.withUnsafeBufferPointer { t in
            out.pixels.withUnsafeMutableBufferPointer { d in
                for y in 0..<h {
                    let y0 = max(0, y - radius), y1 = min(h - 1, y + radius)
                    for x in 0..<w {
                        var v = t[y0 * w + x]
                        var j = y0 + 1
                        while j <= y1 {
                            v = takeMax ? max(v, t[j * w + x]) : min(v, t[j * w + x])
                            j += 1
                        }
                        d[y * w + x] = v
                    }
                }
            }
        }
    }
}
