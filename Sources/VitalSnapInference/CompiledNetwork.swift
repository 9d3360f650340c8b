/// What a `Network` shares between its copies: the graph, every layer's weights repacked for its kernel, and
/// which workspace buffer holds each layer's output. Immutable after `init`, so any number of threads read it.
final class CompiledNetwork: Sendable {
    enum Operation: Sendable {
        case conv2d(Conv2DWeights, ConvWindow, relu: Bool)
        case depthwise(DepthwiseConv2DWeights, ConvWindow, relu: Bool)
        case maxPool2d(kernel: Pair2D, stride: Pair2D)
        case upsample(Pair2D)
        case concat
        case add(relu: Bool)
        case relu
    }

    let graph: NetworkGraph
    let operations: [Operation]
    /// Whether the output depends on the layer; the others are not run.
    let isNeeded: [Bool]
    /// The workspace buffer of each needed layer's output (-1 for the others).
    let bufferOf: [Int]
    let bufferCount: Int

    init(file: SafeTensorsFile) throws {
        let graph = try NetworkGraph(metadata: file.metadata)
        try graph.validateWeights(in: file)
        self.graph = graph
        operations = try graph.layers.map { layer in
            switch layer.operation {
            case .conv2d(let conv):
                let weight = try file.tensor("\(layer.name).weight").values
                let bias = try file.tensor("\(layer.name).bias").values
                if conv.isDepthwise {
                    return .depthwise(DepthwiseConv2DWeights(weight: weight, bias: bias, channels: conv.outChannels,
                                                             kernelY: conv.kernel.y, kernelX: conv.kernel.x),
                                      conv.window, relu: conv.relu)
                }
                return .conv2d(Conv2DWeights(weight: weight, bias: bias, outChannels: conv.outChannels,
                                             inChannels: conv.inChannels, kernelY: conv.kernel.y, kernelX: conv.kernel.x),
                               conv.window, relu: conv.relu)
            case .maxPool2d(let kernel, let stride): return .maxPool2d(kernel: kernel, stride: stride)
            case .upsample(let factor): return .upsample(factor)
            case .concat: return .concat
            case .add(let relu): return .add(relu: relu)
            case .relu: return .relu
            }
        }

        // The layers the output depends on, walking back from it.
        let count = graph.layers.count
        var needed = [Bool](repeating: false, count: count)
        needed[graph.outputLayer] = true
        for i in stride(from: graph.outputLayer, through: 0, by: -1) where needed[i] {
            for case .layer(let j) in graph.layers[i].inputs { needed[j] = true }
        }
        // A layer's output lives until its last reader has run (the output until the end); a buffer whose layer
        // has died is handed to the next layer that needs one. A layer never writes into the buffer of one of
        // its own inputs: those are released only after its buffer is picked.
        var lastUse = [Int](repeating: -1, count: count)
        for i in 0..<count where needed[i] {
            for case .layer(let j) in graph.layers[i].inputs { lastUse[j] = i }
        }
        lastUse[graph.outputLayer] = Int.max
        var bufferOf = [Int](repeating: -1, count: count)
        var free: [Int] = []
        var buffers = 0
        for i in 0..<count where needed[i] {
            if let buffer = free.popLast() {
                bufferOf[i] = buffer
            } else {
                bufferOf[i] = buffers
                buffers += 1
            }
            for case .layer(let j) in Set(graph.layers[i].inputs) where lastUse[j] == i {
                free.append(bufferOf[j])
            }
        }
        isNeeded = needed
        self.bufferOf = bufferOf
        bufferCount = buffers
    }
}
