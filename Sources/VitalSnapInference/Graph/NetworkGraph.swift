import Foundation

/// A network's layers as the safetensors metadata `vitalsnap.graph` describes them (written by
/// Training/graphnet.py):
///
///     {"format": 1, "input_channels": C, "output": name (optional, default: the last layer),
///      "layers": [{"name": str, "op": str, "inputs": [names] (optional), ...attributes}, ...]}
///
/// A layer reads "input" (the image) or earlier layers; by default the previous layer, the first one "input".
/// Ops and attributes, pairs written `[y, x]` or as one integer:
///
/// - `conv2d`: `in`, `out`, `kernel`, `stride` (1), `padding` (0), `dilation` (1), `groups` (1, or in = out =
///   groups: depthwise), `activation` ("none" | "relu"); weights `<name>.weight` [out, in / groups, kh, kw] and
///   `<name>.bias` [out].
/// - `maxpool2d`: `kernel`, `stride` (default: the kernel); no padding, floor mode.
/// - `upsample`: `factor` (nearest neighbour).
/// - `concat`: the channels of one or more inputs of one size.
/// - `add`: two inputs of one shape, `activation`.
/// - `relu`.
///
/// Decoding checks names, inputs, attributes and channel counts (unknown keys are errors, so a misspelt
/// attribute cannot pass silently); `validateWeights(in:)` checks the weights against the layers.
public struct NetworkGraph: Sendable, Equatable {
    /// The metadata key of the graph description.
    public static let metadataKey = "vitalsnap.graph"
    /// The description format this library reads.
    public static let format = 1

    public let inputChannels: Int
    public let layers: [GraphLayer]
    /// The index of the layer whose output is the network's output.
    public let outputLayer: Int

    public var outputChannels: Int { layers[outputLayer].outputChannels }

    /// The graph in a safetensors file's metadata.
    public init(metadata: [String: String]) throws {
        guard let json = metadata[Self.metadataKey] else { throw NetworkGraphError.missingGraph }
        try self.init(json: json)
    }

    public init(json: String) throws {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        } catch {
            throw NetworkGraphError.notJSON("\(error)")
        }
        guard let root = object as? [String: Any] else { throw NetworkGraphError.notJSON("not an object") }
        guard let format = root["format"] else { throw NetworkGraphError.unsupportedFormat("missing") }
        guard JSONValue.integer(format) == Self.format else { throw NetworkGraphError.unsupportedFormat("\(format)") }
        for key in root.keys.sorted() where !["format", "input_channels", "layers", "output"].contains(key) {
            throw NetworkGraphError.malformedGraph("unknown key '\(key)'")
        }
        guard let channelsValue = root["input_channels"], let inputChannels = JSONValue.integer(channelsValue), inputChannels >= 1 else {
            throw NetworkGraphError.malformedGraph("'input_channels' must be a positive integer")
        }
        guard let layerObjects = root["layers"] as? [Any], !layerObjects.isEmpty else {
            throw NetworkGraphError.malformedGraph("'layers' must be a non-empty array")
        }

        var layers: [GraphLayer] = []
        var indexByName: [String: Int] = [:]
        for (index, object) in layerObjects.enumerated() {
            guard let fields = object as? [String: Any] else {
                throw NetworkGraphError.malformedGraph("layer \(index) is not an object")
            }
            let layer = try Self.decodeLayer(fields, index: index, previous: layers, indexByName: indexByName,
                                             inputChannels: inputChannels)
            indexByName[layer.name] = index
            layers.append(layer)
        }

        var outputLayer = layers.count - 1
        if let output = root["output"] {
            guard let name = output as? String, let index = indexByName[name] else {
                throw NetworkGraphError.malformedGraph("'output' must name a layer, not \(output)")
            }
            outputLayer = index
        }
        self.init(inputChannels: inputChannels, layers: layers, outputLayer: outputLayer)
    }

    /// A graph from layers already decoded (their inputs point backwards, their channel counts agree).
    init(inputChannels: Int, layers: [GraphLayer], outputLayer: Int) {
        precondition(!layers.isEmpty && layers.indices.contains(outputLayer), "a graph needs its output layer")
        self.inputChannels = inputChannels
        self.layers = layers
        self.outputLayer = outputLayer
    }

    private static let allowedKeys: [String: Set<String>] = [
        "conv2d": ["in", "out", "kernel", "stride", "padding", "dilation", "groups", "activation"],
        "maxpool2d": ["kernel", "stride"],
        "upsample": ["factor"],
        "concat": [],
        "add": ["activation"],
        "relu": [],
    ]

    private static func decodeLayer(_ fields: [String: Any], index: Int, previous: [GraphLayer],
                                    indexByName: [String: Int], inputChannels: Int) throws -> GraphLayer {
        guard let name = fields["name"] as? String else {
            throw NetworkGraphError.badName(layer: "#\(index)", reason: "'name' is missing or not a string")
        }
        if name.isEmpty || name.contains(".") || name == "input" {
            throw NetworkGraphError.badName(layer: name, reason: "a name must be non-empty, without '.', and not 'input'")
        }
        if indexByName[name] != nil { throw NetworkGraphError.badName(layer: name, reason: "the name is used twice") }
        guard let op = fields["op"] as? String else {
            throw NetworkGraphError.badAttribute(layer: name, reason: "'op' is missing or not a string")
        }
        guard let allowed = allowedKeys[op] else { throw NetworkGraphError.unknownOperation(layer: name, op: op) }
        let reader = LayerFields(layer: name, fields: fields)
        try reader.rejectUnknown(allowed: allowed.union(["name", "op", "inputs"]))

        // Inputs: names of "input" or earlier layers.
        var inputs: [GraphLayer.Input] = []
        if let value = fields["inputs"] {
            guard let names = value as? [Any] else { throw NetworkGraphError.badInput(layer: name, reason: "'inputs' is not an array") }
            for source in names {
                guard let sourceName = source as? String else {
                    throw NetworkGraphError.badInput(layer: name, reason: "input \(source) is not a string")
                }
                if sourceName == "input" {
                    inputs.append(.image)
                } else if let sourceIndex = indexByName[sourceName] {
                    inputs.append(.layer(sourceIndex))
                } else {
                    throw NetworkGraphError.badInput(layer: name, reason: "input '\(sourceName)' is neither 'input' nor an earlier layer")
                }
            }
        } else {
            inputs = [index == 0 ? .image : .layer(index - 1)]
        }
        let expectedCount = ["conv2d": 1, "maxpool2d": 1, "upsample": 1, "relu": 1, "add": 2][op]
        if let expectedCount, inputs.count != expectedCount {
            throw NetworkGraphError.badInput(layer: name, reason: "\(op) takes \(expectedCount) input(s), not \(inputs.count)")
        }
        if inputs.isEmpty { throw NetworkGraphError.badInput(layer: name, reason: "concat takes at least one input") }
        let channels = inputs.map { input -> Int in
            switch input {
            case .image: return inputChannels
            case .layer(let i): return previous[i].outputChannels
            }
        }

        let operation: LayerOperation
        let outputChannels: Int
        switch op {
        case "conv2d":
            let conv = Convolution2D(
                inChannels: try reader.integer("in", minimum: 1), outChannels: try reader.integer("out", minimum: 1),
                kernel: try reader.pair("kernel", minimum: 1),
                stride: try reader.optionalPair("stride", minimum: 1, default: Pair2D(1)),
                padding: try reader.optionalPair("padding", minimum: 0, default: Pair2D(0)),
                dilation: try reader.optionalPair("dilation", minimum: 1, default: Pair2D(1)),
                groups: try reader.optionalInteger("groups", minimum: 1, default: 1), relu: try reader.relu())
            if conv.groups != 1 && !(conv.groups == conv.inChannels && conv.groups == conv.outChannels) {
                throw NetworkGraphError.badAttribute(
                    layer: name, reason: "groups must be 1 or equal to in and out (depthwise), not \(conv.groups) with in \(conv.inChannels) and out \(conv.outChannels)")
            }
            if conv.inChannels != channels[0] {
                throw NetworkGraphError.channelMismatch(layer: name, expected: conv.inChannels, found: channels[0])
            }
            operation = .conv2d(conv)
            outputChannels = conv.outChannels
        case "maxpool2d":
            let kernel = try reader.pair("kernel", minimum: 1)
            operation = .maxPool2d(kernel: kernel, stride: try reader.optionalPair("stride", minimum: 1, default: kernel))
            outputChannels = channels[0]
        case "upsample":
            operation = .upsample(factor: try reader.pair("factor", minimum: 1))
            outputChannels = channels[0]
        case "concat":
            operation = .concat
            outputChannels = channels.reduce(0, +)
        case "add":
            if channels[0] != channels[1] {
                throw NetworkGraphError.channelMismatch(layer: name, expected: channels[0], found: channels[1])
            }
            operation = .add(relu: try reader.relu())
            outputChannels = channels[0]
        default:  // relu
            operation = .relu
            outputChannels = channels[0]
        }
        return GraphLayer(name: name, operation: operation, inputs: inputs, outputChannels: outputChannels)
    }

    /// Checks that `file` holds `<name>.weight` and `<name>.bias` of the right shapes for every convolution.
    public func validateWeights(in file: SafeTensorsFile) throws {
        for layer in layers {
            guard case .conv2d(let conv) = layer.operation else { continue }
            for (tensor, shape) in [("\(layer.name).weight", conv.weightShape), ("\(layer.name).bias", [conv.outChannels])] {
                guard let info = file.tensors[tensor] else { throw NetworkGraphError.missingWeight(tensor) }
                if info.shape != shape {
                    throw NetworkGraphError.weightShapeMismatch(tensor: tensor, expected: shape, found: info.shape)
                }
            }
        }
    }
}
