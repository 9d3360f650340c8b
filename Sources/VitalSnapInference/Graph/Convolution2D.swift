/// A `conv2d` layer's attributes: dense (`groups` 1) or depthwise (`groups` = in = out channels).
public struct Convolution2D: Sendable, Equatable {
    public var inChannels: Int
    public var outChannels: Int
    public var kernel: Pair2D
    public var stride: Pair2D
    public var padding: Pair2D
    public var dilation: Pair2D
    public var groups: Int
    /// ReLU after the bias.
    public var relu: Bool

    public init(inChannels: Int, outChannels: Int, kernel: Pair2D, stride: Pair2D = Pair2D(1),
                padding: Pair2D = Pair2D(0), dilation: Pair2D = Pair2D(1), groups: Int = 1, relu: Bool = false) {
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.kernel = kernel
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.groups = groups
        self.relu = relu
    }

    /// Each channel convolved with its own kernel (groups > 1, which the graph allows only as in = out = groups).
    public var isDepthwise: Bool { groups > 1 }

    /// PyTorch's weight shape: [out, in / groups, kh, kw].
    public var weightShape: [Int] { [outChannels, inChannels / groups, kernel.y, kernel.x] }

    var window: ConvWindow {
        ConvWindow(kernelY: kernel.y, kernelX: kernel.x, strideY: stride.y, strideX: stride.x, padY: padding.y,
                   padX: padding.x, dilationY: dilation.y, dilationX: dilation.x)
    }
}
