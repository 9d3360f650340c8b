/// Clears straight runs of ink longer than any character stroke could be: the edges of a display's bezel, table
/// edges, shadows. Digits often touch the bezel in a tight crop; without this they would join it into one big
/// component and never be seen as digits.
public struct LongRunRemoval: Sendable {
    public var maximumHorizontal: Int
    public var maximumVertical: Int

    public init(maximumHorizontal: Int, maximumVertical: Int, margin: Int = 2) {
        self.maximumHorizontal = maximumHorizontal
        self.maximumVertical = maximumVertical
        self.margin = margin
    }

    /// Pixels this close to a removed run go too: the ragged edge a bezel leaves behind would otherwise glue
    /// the tops of neighbouring digits together.
    public var margin = 2

    /// Both directions are judged on the mask as it was, then cleared together.
    public func apply(_ mask: inout InkMask, scratch: inout InkMask) {
        let w = mask.width, h = mask.height
        scratch.reshape(width: w, height: h)
        let maxH = maximumHorizontal, maxV = maximumVertical
        mask.pixels.withUnsafeBufferPointer { m in
            scratch.pixels.withUnsafeMutableBufferPointer { s in
                for i in 0..<s.count { s[i] = 0 }
                for y in 0..<h {
                    var x = 0
                    let row = y * w
                    while x < w {
                        if m[row + x] == 0 { x &+= 1; continue }
                        let start = x
                        while x < w && m[row + x] != 0 { x &+= 1 }
                        if x - start > maxH { for i in start..<x { s[row + i] = 1 } }
                    }
                }
                for x in 0..<w {
                    var y = 0
                    while y < h {
                        if m[y * w + x] == 0 { y &+= 1; continue }
                        let start = y
                        while y < h && m[y * w + x] != 0 { y &+= 1 }
                        if y - start > maxV { for j in start..<y { s[j * w + x] = 1 } }
                    }
                }
            }
        }
        if margin > 0 {
            var grown = InkMask(width: w, height: h)
            Closing.dilateOrErode(scratch, into: &grown, radius: margin, dilate: true)
            swap(&grown, &scratch)
        }
        scratch.pixels.withUnsafeBufferPointer { s in
            mask.pixels.withUnsafeMutableBufferPointer { m in
                for i in 0..<m.count where s[i] != 0 { m[i] = 0 }
            }
        }
    }
}
