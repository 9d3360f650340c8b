/// One layer of a `NetworkGraph`.
public struct GraphLayer: Sendable, Equatable {
    /// Where a layer reads from.
    public enum Input: Sendable, Hashable {
        /// The network's input (named "input" in the JSON).
        case image
        /// The output of the layer at this index, always an earlier one.
        case layer(Int)
    }

    public let name: String
    public let operation: LayerOperation
    public let inputs: [Input]
    /// The channel count of the layer's output, worked out from its inputs when the graph is decoded.
    public let outputChannels: Int

    init(name: String, operation: LayerOperation, inputs: [Input], outputChannels: Int) {
        self.name = name
        self.operation = operation
        self.inputs = inputs
        self.outputChannels = outputChannels
    }
}
