/// Downscaling and resizing.
///
/// Hot loops run on raw pointers with wrapping arithmetic: bounds-checked indexing and overflow checks
/// keep the optimizer from vectorizing and cost several times the work itself.
extension GrayImage {
    // MARK: Area average

    /// Each output pixel is the rounded mean of an n x n block. The size is rounded up: blocks on the
    /// right and bottom edge may be partial and average only the pixels they cover, so no content is lost.
    public func downsampled(byFactor n: Int) -> GrayImage {
        var out = GrayImage(width: 0, height: 0)
        downsample(byFactor: n, into: &out)
        return out
    }

    /// Like `downsampled(byFactor:)`, writing into `out` and reusing its storage.
    public func downsample(byFactor n: Int, into out: inout GrayImage) {
        precondition(n >= 1, "downsampling factor must be at least 1")
        areaAverage(factorX: n, factorY: n, into: &out)
    }

    /// Block means with separate horizontal and vertical factors (also the anti-aliasing step of resize).
    func areaAverage(factorX fx: Int, factorY fy: Int, into out: inout GrayImage) {
        let w = width, h = height
        let outWidth = (w + fx - 1) / fx, outHeight = (h + fy - 1) / fy
        out.reshape(width: outWidth, height: outHeight)
        guard outWidth > 0, outHeight > 0 else { return }
        if fx == 1 && fy == 1 {
            out.pixels.withUnsafeMutableBufferPointer { dst in
                pixels.withUnsafeBufferPointer { src in dst.baseAddress!.update(from: src.baseAddress!, count: w * h) }
            }
            return
        }
        let fullColumns = w / fx, remainder = w - fullColumns * fx
        pixels.withUnsafeBufferPointer { srcBuffer in
            out.pixels.withUnsafeMutableBufferPointer { dstBuffer in
                // Column sums for one output row; UInt64 so no factor can overflow it.
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: outWidth) { accBuffer in
                    let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!, acc = accBuffer.baseAddress!
                    for outY in 0..<outHeight {
                        let y0 = outY &* fy, y1 = Swift.min(y0 &+ fy, h)
                        if fx == 2 && fy == 2 && y1 &- y0 == 2 && remainder == 0 {
                            // The common 2x2 case without the accumulator: about twice as fast.
                            let top = src + y0 &* w, bottom = top + w, row = dst + outY &* outWidth
                            var column = 0
                            while column < outWidth {
                                let x = column &<< 1
                                let sum = UInt16(top[x]) &+ UInt16(top[x &+ 1]) &+ UInt16(bottom[x]) &+ UInt16(bottom[x &+ 1])
                                row[column] = UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
                                column &+= 1
                            }
                            continue
                        }
                        acc.initialize(repeating: 0, count: outWidth)
                        for y in y0..<y1 {
                            var p = src + y &* w
                            var column = 0
                            while column < fullColumns {
                                var sum: UInt32 = 0
                                var k = 0
                                while k < fx {
                                    sum &+= UInt32(p[k])
                                    k &+= 1
                                }
                                acc[column] &+= UInt64(sum)
                                p += fx
                                column &+= 1
                            }
                            if remainder > 0 {
                                var sum: UInt32 = 0
                                for k in 0..<remainder { sum &+= UInt32(p[k]) }
                                acc[fullColumns] &+= UInt64(sum)
                            }
                        }
                        let rows = UInt64(y1 &- y0)
                        let row = dst + outY &* outWidth
                        let count = UInt64(fx) &* rows
                        for column in 0..<fullColumns {
                            row[column] = UInt8(truncatingIfNeeded: (acc[column] &+ count / 2) / count)
                        }
                        if remainder > 0 {
                            let partial = UInt64(remainder) &* rows
                            row[fullColumns] = UInt8(truncatingIfNeeded: (acc[fullColumns] &+ partial / 2) / partial)
                        }
                    }
                    acc.deinitialize(count: outWidth)
                }
            }
        }
    }

    // MARK: Resize

    /// Bilinear resize to exactly `width` x `height` (pixel centres aligned). When shrinking by more
    /// than 2 in a direction, whole blocks are first averaged (integer factor per axis) so thin strokes
    /// (one-pixel LCD segment edges) are averaged in rather than skipped by the sample grid.
    public func resized(width: Int, height: Int) -> GrayImage {
        var out = GrayImage(width: 0, height: 0)
        var scratch = GrayImage(width: 0, height: 0)
        resize(into: &out, width: width, height: height, scratch: &scratch)
        return out
    }

    /// Like `resized(width:height:)`, writing into `out` and reusing its storage (the anti-aliasing
    /// intermediate, if needed, is allocated per call; use the `scratch:` variant to reuse that too).
    public func resize(into out: inout GrayImage, width: Int, height: Int) {
        var scratch = GrayImage(width: 0, height: 0)
        resize(into: &out, width: width, height: height, scratch: &scratch)
    }

    /// Allocation-free once warmed up: `out` and `scratch` (the block-averaged intermediate) are reused.
    public func resize(into out: inout GrayImage, width outWidth: Int, height outHeight: Int, scratch: inout GrayImage) {
        precondition(outWidth >= 0 && outHeight >= 0, "negative image size")
        out.reshape(width: outWidth, height: outHeight)
        guard outWidth > 0, outHeight > 0 else { return }
        guard !isEmpty else {
            // Nothing to sample from: define the result as black rather than trapping.
            out.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            return
        }
        if outWidth == width && outHeight == height {
            out.pixels.withUnsafeMutableBufferPointer { dst in
                pixels.withUnsafeBufferPointer { src in dst.baseAddress!.update(from: src.baseAddress!, count: src.count) }
            }
            return
        }
        // Integer block factor per axis, only when shrinking by more than 2 (bilinear at exactly 2
        // already averages 2x2 because the sample points fall between pixels).
        let ratioX = Double(width) / Double(outWidth), ratioY = Double(height) / Double(outHeight)
        let fx = ratioX > 2 ? Int(ratioX) : 1
        let fy = ratioY > 2 ? Int(ratioY) : 1
        if fx > 1 || fy > 1 {
            areaAverage(factorX: fx, factorY: fy, into: &scratch)
            scratch.bilinear(into: &out, scaleX: ratioX / Double(fx), scaleY: ratioY / Double(fy))
        } else {
            bilinear(into: &out, scaleX: ratioX, scaleY: ratioY)
        }
    }

    /// Bilinear sampling with 8-bit fixed-point weights. Output pixel centre x maps to source coordinate
    /// (x + 0.5) * scale - 0.5, clamped at the borders. `out` already has its final size. The columns are done
    /// in blocks of `bilinearBlock`, whose table of sample positions fits on the stack (no allocation).
    private func bilinear(into out: inout GrayImage, scaleX: Double, scaleY: Double) {
        let w = width, h = height, outWidth = out.width, outHeight = out.height
        // Per output column of a block: left index, right index, right weight (0...256).
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.bilinearBlock * 3) { tableBuffer in
            let table = tableBuffer.baseAddress!
            pixels.withUnsafeBufferPointer { srcBuffer in
                out.pixels.withUnsafeMutableBufferPointer { dstBuffer in
                    let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!
                    var first = 0
                    while first < outWidth {
                        let count = min(Self.bilinearBlock, outWidth - first)
                        for k in 0..<count {
                            let (i0, i1, weight) = Self.samplePosition(first + k, scale: scaleX, limit: w)
                            table[3 * k] = Int32(i0)
                            table[3 * k + 1] = Int32(i1)
                            table[3 * k + 2] = Int32(weight)
                        }
                        for y in 0..<outHeight {
                            let (j0, j1, wy) = Self.samplePosition(y, scale: scaleY, limit: h)
                            let top = src + j0 &* w, bottom = src + j1 &* w
                            let weightY = Int32(wy)
                            let row = dst + y &* outWidth + first
                            var x = 0
                            var t = table
                            while x < count {
                                let i0 = Int(t[0]), i1 = Int(t[1]), wx = t[2]
                                let a = Int32(top[i0]), b = Int32(top[i1])
                                let c = Int32(bottom[i0]), d = Int32(bottom[i1])
                                let upper = a &<< 8 &+ (b &- a) &* wx  // value * 256
                                let lower = c &<< 8 &+ (d &- c) &* wx
                                let value = upper &<< 8 &+ (lower &- upper) &* weightY  // value * 65536
                                row[x] = UInt8(truncatingIfNeeded: (value &+ 32768) &>> 16)
                                x &+= 1
                                t += 3
                            }
                        }
                        first += count
                    }
                }
            }
        }
    }

    /// Output columns per block of `bilinear`: 64 columns' table is 768 bytes, under the 1 KiB that
    /// `withUnsafeTemporaryAllocation` keeps on the stack on Linux (more goes to the heap).
    private static let bilinearBlock = 64

    /// Neighbouring source indices and the weight of the second (0...256) for output index `i`.
    @inline(__always)
    private static func samplePosition(_ i: Int, scale: Double, limit: Int) -> (Int, Int, Int) {
        let position = (Double(i) + 0.5) * scale - 0.5
        if position <= 0 { return (0, 0, 0) }
        if position >= Double(limit - 1) { return (limit - 1, limit - 1, 0) }
        let lower = Int(position)
        let weight = Int(((position - Double(lower)) * 256).rounded())
        return weight >= 256 ? (lower + 1, lower + 1, 0) : (lower, lower + 1, weight)
    }
}
