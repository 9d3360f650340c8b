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
    ///
    /// One pass down the rows: horizontal runs are measured along each row, vertical ones with a running length
    /// per column (so the mask is read in memory order, never down a column). Each long run marks its rectangle
    /// grown by `margin` in `scratch` (the dilation of a straight run by a square is that rectangle), and only
    /// when something was marked is the mask cleared where `scratch` is set.
    public func apply(_ mask: inout InkMask, scratch: inout InkMask) {
        var columnRun: [UInt16] = []
        apply(&mask, scratch: &scratch, columnRuns: &columnRun)
    }

    /// As above, with the per-column run lengths kept by the caller between calls (no allocation).
    public func apply(_ mask: inout InkMask, scratch: inout InkMask, columnRuns columnRun: inout [UInt16]) {
        let w = mask.width, h = mask.height
        guard w > 0, h > 0 else { return }
        scratch.reshape(width: w, height: h)
        let maxH = maximumHorizontal, maxV = maximumVertical, m = max(0, margin)
        var marked = false
        // Heights here stay far below 65,535 (images are scaled to at most 1600 px first); longer columns
        // saturate, which still counts as long.
        let checksColumns = maxV < h
        if checksColumns {
            columnRun.removeAll(keepingCapacity: true)
            columnRun.append(contentsOf: repeatElement(0, count: w))
        }
        mask.pixels.withUnsafeBufferPointer { ink in
            scratch.pixels.withUnsafeMutableBufferPointer { s in
                // Cleared only once something is to be marked: most masks have no long run at all.
                func mark(x0: Int, x1: Int, y0: Int, y1: Int) {
                    if !marked { s.update(repeating: 0) }
                    // [x0, x1) x [y0, y1), grown by the margin and clipped.
                    let xa = max(0, x0 - m), xb = min(w, x1 + m), ya = max(0, y0 - m), yb = min(h, y1 + m)
                    for y in ya..<yb {
                        let row = y &* w
                        for x in xa..<xb { s[row &+ x] = 1 }
                    }
                    marked = true
                }
                let bytes = UnsafeRawPointer(ink.baseAddress!)
                columnRun.withUnsafeMutableBufferPointer { run in
                    let limit = UInt16(clamping: maxV)
                    for y in 0...h {
                        let row = y &* w
                        if y < h {
                            var x = 0
                            while x < w {
                                // Most of a mask is background: skip it eight bytes at a time.
                                if x &+ 8 <= w && bytes.loadUnaligned(fromByteOffset: row &+ x, as: UInt64.self) == 0 {
                                    x &+= 8
                                    continue
                                }
                                if ink[row &+ x] == 0 { x &+= 1; continue }
                                let start = x
                                while x < w && ink[row &+ x] != 0 { x &+= 1 }
                                if x - start > maxH { mark(x0: start, x1: x, y0: y, y1: y + 1) }
                            }
                        }
                        guard checksColumns else { continue }
                        // Vertical runs end at a background pixel or below the last row. First, branch-free,
                        // whether any long run ends on this row; only then find which.
                        var ends: UInt16 = 0
                        if y < h {
                            for x in 0..<w {
                                let on = UInt16(ink[row &+ x] & 1)
                                ends |= (1 &- on) & (run[x] > limit ? 1 : 0)
                                run[x] = on &* (run[x] == UInt16.max ? run[x] : run[x] &+ 1)
                            }
                        } else {
                            for x in 0..<w { ends |= run[x] > limit ? 1 : 0 }
                        }
                        if ends != 0 {
                            for x in 0..<w where run[x] == 0 || y == h {
                                // Recover the ended run's length: the rows above that were ink, read upwards.
                                var top = y
                                while top > 0 && ink[(top &- 1) &* w &+ x] != 0 { top &-= 1 }
                                if y - top > maxV { mark(x0: x, x1: x + 1, y0: top, y1: y) }
                            }
                            if y == h { break }
                        }
                    }
                }
            }
        }
        guard marked else { return }
        scratch.pixels.withUnsafeBufferPointer { s in
            mask.pixels.withUnsafeMutableBufferPointer { ink in
                // Both are 0 or 1: keep ink only where nothing was marked (a loop the compiler vectorizes).
                for i in 0..<ink.count { ink[i] &= s[i] ^ 1 }
            }
        }
    }
}
