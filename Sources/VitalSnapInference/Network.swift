import Foundation

/// A network read from a safetensors file (weights plus the `vitalsnap.graph` metadata), run on HWC feature
/// maps.
///
/// The weights are repacked once, at `init`, and shared: copies of a `Network` (one per thread) share them
/// and each copy gets a workspace of its own, the layers' output buffers, on its first run. A layer's buffer is
/// reused by later layers once nothing reads it any more. Running again on an input of the same size, or a
/// smaller one, allocates nothing; a larger one grows the buffers.
///
/// `run` throws `NetworkError` for an input the network cannot take (wrong channel count, too small, a size
/// the architecture's concat or add cannot join), before computing anything.
public struct Network: Sendable {
    private let compiled: CompiledNetwork
    private var buffers: [FeatureMap]
    private var sizes: [Pair2D] = []
    private var plannedSize: Pair2D?
    private var convScratch = Conv2DScratch()

    /// The layers the network runs.
    public var graph: NetworkGraph { compiled.graph }

    public init(file: SafeTensorsFile) throws {
        compiled = try CompiledNetwork(file: file)
        buffers = [FeatureMap](repeating: FeatureMap(), count: compiled.bufferCount)
    }

    public init(contentsOf url: URL) throws {
        try self.init(file: SafeTensorsFile(contentsOf: url))
    }

    public init(path: String) throws {
        try self.init(contentsOf: URL(fileURLWithPath: path))
    }

    /// The output of the last run (an empty map before the first). Holding on to it while running again costs a
    /// copy of the buffer; `withOutput` reads it in place.
    public var output: FeatureMap { buffers[compiled.bufferOf[compiled.graph.outputLayer]] }

    /// Reads the output of the last run in place.
    public func withOutput<R>(_ body: (FeatureMap) throws -> R) rethrows -> R {
        try body(buffers[compiled.bufferOf[compiled.graph.outputLayer]])
    }

    /// The values the workspace holds without growing.
    public var workspaceCapacity: Int { buffers.reduce(convScratch.capacity) { $0 + $1.capacity } }

    /// Runs the network on `input` (HWC, `graph.inputChannels` channels); the result is in `output`.
    public mutating func run(_ input: FeatureMap) throws {
        let graph = compiled.graph
        guard input.channels == graph.inputChannels else {
            throw NetworkError.inputChannels(expected: graph.inputChannels, found: input.channels)
        }
        precondition(input.values.count == input.height * input.width * input.channels, "a malformed input map")
        let size = Pair2D(y: input.height, x: input.width)
        if plannedSize != size {
            plannedSize = nil
            try graph.planSizes(height: input.height, width: input.width, into: &sizes)
            plannedSize = size
        }

        for (index, layer) in graph.layers.enumerated() where compiled.isNeeded[index] {
            let target = compiled.bufferOf[index]
            var out = FeatureMap()
            swap(&out, &buffers[target])  // `out` holds the buffer alone: written in place, never copied
            func source(_ k: Int) -> FeatureMap {
                switch layer.inputs[k] {
                case .image: return input
                case .layer(let j): return buffers[compiled.bufferOf[j]]
                }
            }
            switch compiled.operations[index] {
            case .conv2d(let weights, let window, let relu):
                Conv2DKernel.run(source(0), weights: weights, window: window, relu: relu, into: &out, scratch: &convScratch)
            case .depthwise(let weights, let window, let relu):
                DepthwiseConv2DKernel.run(source(0), weights: weights, window: window, relu: relu, into: &out)
            case .maxPool2d(let kernel, let stride):
                MaxPool2DKernel.run(source(0), kernelY: kernel.y, kernelX: kernel.x, strideY: stride.y, strideX: stride.x,
                                    into: &out)
            case .upsample(let factor):
                UpsampleKernel.run(source(0), factorY: factor.y, factorX: factor.x, into: &out)
            case .concat:
                out.reshape(height: sizes[index].y, width: sizes[index].x, channels: layer.outputChannels)
                var offset = 0
                for k in layer.inputs.indices {
                    let part = source(k)
                    ConcatKernel.copy(part, into: &out, channelOffset: offset)
                    offset += part.channels
                }
            case .add(let relu):
                AddKernel.run(source(0), source(1), relu: relu, into: &out)
            case .relu:
                ReLUKernel.run(source(0), into: &out)
            }
            swap(&out, &buffers[target])
        }
    }
}
