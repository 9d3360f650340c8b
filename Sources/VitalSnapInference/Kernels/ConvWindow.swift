/// Where a sliding window (a convolution's or a pooling's) reads: kernel size, stride, zero padding added on
/// both sides and dilation, per axis. Output pixel (oy, ox) reads input rows `oy * strideY - padY + ky *
/// dilationY` for `ky < kernelY`, and columns likewise; reads outside the input are zeros (convolution) or
/// skipped (pooling, which has no padding).
struct ConvWindow: Sendable, Equatable {
    var kernelY: Int, kernelX: Int
    var strideY: Int = 1, strideX: Int = 1
    var padY: Int = 0, padX: Int = 0
    var dilationY: Int = 1, dilationX: Int = 1

    init(kernelY: Int, kernelX: Int, strideY: Int = 1, strideX: Int = 1, padY: Int = 0, padX: Int = 0,
         dilationY: Int = 1, dilationX: Int = 1) {
        precondition(kernelY >= 1 && kernelX >= 1 && strideY >= 1 && strideX >= 1, "kernel and stride must be at least 1")
        precondition(padY >= 0 && padX >= 0 && dilationY >= 1 && dilationX >= 1,
                     "padding must be at least 0 and dilation at least 1")
        self.kernelY = kernelY
        self.kernelX = kernelX
        self.strideY = strideY
        self.strideX = strideX
        self.padY = padY
        self.padX = padX
        self.dilationY = dilationY
        self.dilationX = dilationX
    }

    /// PyTorch's output size: floor((n + 2 pad - dilation (k - 1) - 1) / stride) + 1, and 0 where the padded input
    /// is smaller than the dilated kernel.
    func outputSize(height: Int, width: Int) -> (height: Int, width: Int) {
        (Self.outputLength(height, kernel: kernelY, stride: strideY, pad: padY, dilation: dilationY),
         Self.outputLength(width, kernel: kernelX, stride: strideX, pad: padX, dilation: dilationX))
    }

    static func outputLength(_ n: Int, kernel: Int, stride: Int, pad: Int, dilation: Int) -> Int {
        let span = n + 2 * pad - dilation * (kernel - 1) - 1
        return span < 0 ? 0 : span / stride + 1
    }

    /// The kernel rows `ky` whose input row lies inside an input of `height` rows, for output row `oy`.
    func rowsInside(outputRow oy: Int, height: Int) -> Range<Int> {
        Self.tapsInside(origin: oy * strideY - padY, kernel: kernelY, dilation: dilationY, length: height)
    }

    /// The kernel columns `kx` whose input column lies inside an input of `width` columns, for output column `ox`.
    func columnsInside(outputColumn ox: Int, width: Int) -> Range<Int> {
        Self.tapsInside(origin: ox * strideX - padX, kernel: kernelX, dilation: dilationX, length: width)
    }

    /// Taps k < kernel with 0 <= origin + k * dilation < length.
    static func tapsInside(origin: Int, kernel: Int, dilation: Int, length: Int) -> Range<Int> {
        let first = origin >= 0 ? 0 : ceilDivide(-origin, dilation)
        let last = origin >= length ? -1 : (length - 1 - origin) / dilation  // floor, numerator >= 0
        let lo = min(first, kernel), hi = max(lo, min(last + 1, kernel))
        return lo..<hi
    }

    /// The output columns (of `outputWidth`) whose every tap lies inside an input of `width` columns: the
    /// interior, where kernels read without bounds checks. Columns before it and after it are the border.
    func interiorColumns(width: Int, outputWidth: Int) -> Range<Int> {
        Self.interior(length: width, outputLength: outputWidth, kernel: kernelX, stride: strideX, pad: padX,
                      dilation: dilationX)
    }

    /// The output rows whose every tap lies inside an input of `height` rows.
    func interiorRows(height: Int, outputHeight: Int) -> Range<Int> {
        Self.interior(length: height, outputLength: outputHeight, kernel: kernelY, stride: strideY, pad: padY,
                      dilation: dilationY)
    }

    static func interior(length: Int, outputLength: Int, kernel: Int, stride: Int, pad: Int, dilation: Int) -> Range<Int> {
        // o * stride - pad >= 0 and o * stride - pad + dilation (kernel - 1) <= length - 1.
        let first = min(ceilDivide(pad, stride), outputLength)
        let room = length - 1 - dilation * (kernel - 1) + pad
        let end = room < 0 ? 0 : min(room / stride + 1, outputLength)
        return first..<max(first, end)
    }

    /// ceil(a / b) for a >= 0, b > 0.
    static func ceilDivide(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }
}
