extension PixelRect {
    /// This rectangle of an image turned by `orientation` (`.down`, `.right` or `.left`), in the coordinates
    /// of the `width` x `height` image before turning.
    public func turnedBack(_ orientation: ExifOrientation, width w: Int, height h: Int) -> PixelRect {
        switch orientation {
        case .down: PixelRect(x: w - x - self.width, y: h - y - self.height, width: self.width, height: self.height)
        // Turned clockwise: a point (x, y) of the turned image came from (y, h - 1 - x).
        case .right: PixelRect(x: y, y: h - x - self.width, width: self.height, height: self.width)
        // Turned counter-clockwise: (x, y) came from (w - 1 - y, x).
        case .left: PixelRect(x: w - y - self.height, y: x, width: self.height, height: self.width)
        default: self
        }
    }
}

/// Geometric transforms of whole images: the eight EXIF orientations.
///
/// The four transforms that exchange width and height read the source column-wise; they work in 64x64
/// tiles so both the rows being read and the rows being written stay in cache (a 3840x2160 photo
/// would otherwise touch a new cache line for every pixel).
extension GrayImage {
    /// The image as a viewer shows it when the file declares `orientation`.
    public func applying(_ orientation: ExifOrientation) -> GrayImage {
        var out = GrayImage(width: 0, height: 0)
        apply(orientation, into: &out)
        return out
    }

    /// Like `applying(_:)`, writing into `out` and reusing its storage.
    public func apply(_ orientation: ExifOrientation, into out: inout GrayImage) {
        let w = width, h = height
        switch orientation {
        case .up: copyRows(into: &out, flipX: false, flipY: false)
        case .upMirrored: copyRows(into: &out, flipX: true, flipY: false)
        case .down: copyRows(into: &out, flipX: true, flipY: true)
        case .downMirrored: copyRows(into: &out, flipX: false, flipY: true)
        // Output pixel (x, y) reads source (sx, sy) with sy moving with x and sx moving with y, so a
        // transform is: the source offset of output (0, 0), the step per output column (±w), and the
        // step per output row (±1).
        case .leftMirrored:  // transpose: sx = y, sy = x
            swapAxes(into: &out, origin: 0, columnStep: w, rowStep: 1)
        case .right:  // 90° clockwise: sx = y, sy = h-1-x
            swapAxes(into: &out, origin: (h - 1) * w, columnStep: -w, rowStep: 1)
        case .rightMirrored:  // transverse: sx = w-1-y, sy = h-1-x
            swapAxes(into: &out, origin: (h - 1) * w + (w - 1), columnStep: -w, rowStep: -1)
        case .left:  // 90° counter-clockwise: sx = w-1-y, sy = x
            swapAxes(into: &out, origin: w - 1, columnStep: w, rowStep: -1)
        }
    }

    public func rotated90Clockwise() -> GrayImage { applying(.right) }
    public func rotated90CounterClockwise() -> GrayImage { applying(.left) }
    public func rotated180() -> GrayImage { applying(.down) }
    /// Left-right mirror.
    public func mirroredHorizontally() -> GrayImage { applying(.upMirrored) }
    /// Top-bottom mirror.
    public func mirroredVertically() -> GrayImage { applying(.downMirrored) }
    /// Mirror across the main diagonal: pixel (x, y) moves to (y, x).
    public func transposed() -> GrayImage { applying(.leftMirrored) }
    /// Mirror across the anti-diagonal.
    public func transversed() -> GrayImage { applying(.rightMirrored) }

    /// Same-size transforms: whole rows, optionally reversed and/or taken bottom-up.
    private func copyRows(into out: inout GrayImage, flipX: Bool, flipY: Bool) {
        let w = width, h = height
        out.reshape(width: w, height: h)
        guard w > 0, h > 0 else { return }
        pixels.withUnsafeBufferPointer { srcBuffer in
            out.pixels.withUnsafeMutableBufferPointer { dstBuffer in
                let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!
                for y in 0..<h {
                    let from = src + (flipY ? h &- 1 &- y : y) &* w
                    let to = dst + y &* w
                    if flipX {
                        var x = 0
                        var s = w &- 1
                        while x < w {
                            to[x] = from[s]
                            x &+= 1
                            s &-= 1
                        }
                    } else {
                        to.update(from: from, count: w)
                    }
                }
            }
        }
    }

    /// Transforms that exchange width and height; see `apply(_:into:)` for the parameters.
    private func swapAxes(into out: inout GrayImage, origin: Int, columnStep: Int, rowStep: Int) {
        let outWidth = height, outHeight = width
        out.reshape(width: outWidth, height: outHeight)
        guard outWidth > 0, outHeight > 0 else { return }
        let tile = 64
        pixels.withUnsafeBufferPointer { srcBuffer in
            out.pixels.withUnsafeMutableBufferPointer { dstBuffer in
                let src = srcBuffer.baseAddress!, dst = dstBuffer.baseAddress!
                var tileY = 0
                while tileY < outHeight {
                    let yEnd = Swift.min(tileY &+ tile, outHeight)
                    var tileX = 0
                    while tileX < outWidth {
                        let xEnd = Swift.min(tileX &+ tile, outWidth)
                        var y = tileY
                        while y < yEnd {
                            var s = origin &+ y &* rowStep &+ tileX &* columnStep
                            var d = y &* outWidth &+ tileX
                            let dEnd = y &* outWidth &+ xEnd
                            while d < dEnd {
                                dst[d] = src[s]
                                s &+= columnStep
                                d &+= 1
                            }
                            y &+= 1
                        }
                        tileX = xEnd
                    }
                    tileY = yEnd
                }
            }
        }
    }
}
