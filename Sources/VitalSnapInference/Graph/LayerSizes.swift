extension NetworkGraph {
    /// The output size (rows `y`, columns `x`) of every layer for an input of `height` x `width`; throws
    /// `NetworkError` where a layer's output would be empty or a concat's or add's inputs differ in size.
    public func layerSizes(height: Int, width: Int) throws -> [Pair2D] {
        var sizes: [Pair2D] = []
        try planSizes(height: height, width: width, into: &sizes)
        return sizes
    }

    /// `layerSizes` into an array that keeps its storage between calls.
    func planSizes(height: Int, width: Int, into sizes: inout [Pair2D]) throws {
        sizes.removeAll(keepingCapacity: true)
        let image = Pair2D(y: height, x: width)
        func size(_ input: GraphLayer.Input) -> Pair2D {
            switch input {
            case .image: return image
            case .layer(let i): return sizes[i]
            }
        }
        for layer in layers {
            let first = size(layer.inputs[0])
            var out = first
            switch layer.operation {
            case .conv2d(let conv):
                let (h, w) = conv.window.outputSize(height: first.y, width: first.x)
                out = Pair2D(y: h, x: w)
            case .maxPool2d(let kernel, let stride):
                let (h, w) = ConvWindow(kernelY: kernel.y, kernelX: kernel.x, strideY: stride.y, strideX: stride.x)
                    .outputSize(height: first.y, width: first.x)
                out = Pair2D(y: h, x: w)
            case .upsample(let factor):
                out = Pair2D(y: first.y * factor.y, x: first.x * factor.x)
            case .concat, .add:
                if layer.inputs.contains(where: { size($0) != first }) {
                    throw NetworkError.sizeMismatch(layer: layer.name, sizes: layer.inputs.map(size))
                }
            case .relu:
                break
            }
            if out.y < 1 || out.x < 1 {
                throw NetworkError.inputTooSmall(layer: layer.name, inputHeight: height, inputWidth: width)
            }
            sizes.append(out)
        }
    }
}
