/// Why a network cannot run on an input.
public enum NetworkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input's channel count is not the graph's `input_channels`.
    case inputChannels(expected: Int, found: Int)
    /// The input is so small that a layer's output would be empty.
    case inputTooSmall(layer: String, inputHeight: Int, inputWidth: Int)
    /// The inputs of a concat or add differ in size (an input size the architecture does not divide evenly).
    case sizeMismatch(layer: String, sizes: [Pair2D])

    public var description: String {
        switch self {
        case .inputChannels(let expected, let found):
            return "network: the input has \(found) channels, the network takes \(expected)"
        case .inputTooSmall(let layer, let height, let width):
            return "network: a \(height)x\(width) input leaves nothing of layer '\(layer)'"
        case .sizeMismatch(let layer, let sizes):
            return "network: layer '\(layer)' gets inputs of sizes \(sizes.map { "\($0.y)x\($0.x)" }.joined(separator: ", "))"
        }
    }
}
