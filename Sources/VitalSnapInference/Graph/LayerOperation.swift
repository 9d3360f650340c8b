/// What a graph layer computes.
public enum LayerOperation: Sendable, Equatable {
    /// `conv2d`: convolution, bias, optional ReLU.
    case conv2d(Convolution2D)
    /// `maxpool2d`: max over windows, no padding, floor mode.
    case maxPool2d(kernel: Pair2D, stride: Pair2D)
    /// `upsample`: nearest neighbour, integer factors.
    case upsample(factor: Pair2D)
    /// `concat`: the inputs' channels one after the other.
    case concat
    /// `add`: elementwise sum of two inputs, optional ReLU.
    case add(relu: Bool)
    /// `relu`: max(x, 0).
    case relu

    /// The op's name in the graph JSON.
    public var name: String {
        switch self {
        case .conv2d: return "conv2d"
        case .maxPool2d: return "maxpool2d"
        case .upsample: return "upsample"
        case .concat: return "concat"
        case .add: return "add"
        case .relu: return "relu"
        }
    }
}
