/// Why a graph description cannot be run, or does not fit the weights beside it.
public enum NetworkGraphError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's metadata has no `vitalsnap.graph` entry.
    case missingGraph
    /// The description is not a JSON object.
    case notJSON(String)
    /// `format` is missing or not a version this library reads.
    case unsupportedFormat(String)
    /// A top-level field (`input_channels`, `layers`, `output`) is missing or malformed, or unknown.
    case malformedGraph(String)
    /// A layer's `op` is none of conv2d, maxpool2d, upsample, concat, add, relu.
    case unknownOperation(layer: String, op: String)
    /// A layer has a key its op does not take.
    case unknownAttribute(layer: String, key: String)
    /// A layer's attribute is missing or has a wrong type or value.
    case badAttribute(layer: String, reason: String)
    /// A layer's name is missing, empty, contains '.', is "input", or is used twice.
    case badName(layer: String, reason: String)
    /// A layer reads something that is neither "input" nor an earlier layer, or takes a wrong number of inputs.
    case badInput(layer: String, reason: String)
    /// A layer's declared or required channel count disagrees with its input's.
    case channelMismatch(layer: String, expected: Int, found: Int)
    /// A weight the graph needs is not in the file.
    case missingWeight(String)
    /// A weight's shape disagrees with the layer's in/out channels or kernel.
    case weightShapeMismatch(tensor: String, expected: [Int], found: [Int])

    public var description: String {
        switch self {
        case .missingGraph: return "graph: the file's metadata has no '\(NetworkGraph.metadataKey)'"
        case .notJSON(let reason): return "graph: not a JSON object (\(reason))"
        case .unsupportedFormat(let found): return "graph: format \(found), this library reads format \(NetworkGraph.format)"
        case .malformedGraph(let reason): return "graph: \(reason)"
        case .unknownOperation(let layer, let op): return "graph: layer '\(layer)': unknown op '\(op)'"
        case .unknownAttribute(let layer, let key): return "graph: layer '\(layer)': unknown attribute '\(key)'"
        case .badAttribute(let layer, let reason): return "graph: layer '\(layer)': \(reason)"
        case .badName(let layer, let reason): return "graph: layer '\(layer)': \(reason)"
        case .badInput(let layer, let reason): return "graph: layer '\(layer)': \(reason)"
        case .channelMismatch(let layer, let expected, let found):
            return "graph: layer '\(layer)': expects \(expected) input channels, its input has \(found)"
        case .missingWeight(let name): return "graph: the file has no tensor '\(name)'"
        case .weightShapeMismatch(let tensor, let expected, let found):
            return "graph: tensor '\(tensor)' has shape \(found), the layer needs \(expected)"
        }
    }
}
