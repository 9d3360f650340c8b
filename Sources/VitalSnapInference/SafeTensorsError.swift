/// Why bytes are not a safetensors file this library can read, or a tensor is missing from one.
public enum SafeTensorsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer than the 8 bytes of the header length.
    case tooShort(byteCount: Int)
    /// The declared header length is over `SafeTensorsFile.maximumHeaderLength`.
    case headerTooLarge(declared: UInt64, limit: Int)
    /// The declared header reaches past the end of the bytes.
    case truncatedHeader(declared: Int, available: Int)
    /// The header is not a JSON object.
    case headerNotJSON(String)
    /// `__metadata__` is not an object of strings.
    case malformedMetadata(String)
    /// A tensor entry lacks `dtype`, `shape` or `data_offsets`, or one of them has the wrong type or a negative value.
    case malformedEntry(tensor: String, reason: String)
    /// A dtype other than F32 and F16.
    case unsupportedDType(tensor: String, dtype: String)
    /// `data_offsets` begin after they end.
    case misorderedOffsets(tensor: String, begin: Int, end: Int)
    /// `data_offsets` end past the data that follows the header.
    case offsetsOutsideData(tensor: String, end: Int, dataLength: Int)
    /// Two tensors claim the same bytes.
    case overlappingTensors(String, String)
    /// The shape's element count times the dtype's size is not the length of the tensor's bytes.
    case sizeMismatch(tensor: String, shape: [Int], dtype: String, byteLength: Int)
    /// No tensor of that name.
    case missingTensor(String)
    /// The file could not be read.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .tooShort(let n):
            return "safetensors: \(n) bytes, fewer than the 8 of the header length"
        case .headerTooLarge(let declared, let limit):
            return "safetensors: a header of \(declared) bytes is declared, more than the limit of \(limit)"
        case .truncatedHeader(let declared, let available):
            return "safetensors: a header of \(declared) bytes is declared, only \(available) bytes follow"
        case .headerNotJSON(let reason):
            return "safetensors: the header is not a JSON object (\(reason))"
        case .malformedMetadata(let reason):
            return "safetensors: __metadata__ \(reason)"
        case .malformedEntry(let tensor, let reason):
            return "safetensors: tensor '\(tensor)': \(reason)"
        case .unsupportedDType(let tensor, let dtype):
            return "safetensors: tensor '\(tensor)' has dtype \(dtype); only F32 and F16 are supported"
        case .misorderedOffsets(let tensor, let begin, let end):
            return "safetensors: tensor '\(tensor)' begins at \(begin), after its end \(end)"
        case .offsetsOutsideData(let tensor, let end, let dataLength):
            return "safetensors: tensor '\(tensor)' ends at \(end), past the \(dataLength) bytes of data"
        case .overlappingTensors(let a, let b):
            return "safetensors: tensors '\(a)' and '\(b)' overlap"
        case .sizeMismatch(let tensor, let shape, let dtype, let byteLength):
            return "safetensors: tensor '\(tensor)' of shape \(shape) and dtype \(dtype) does not fill its \(byteLength) bytes"
        case .missingTensor(let name):
            return "safetensors: no tensor '\(name)'"
        case .unreadable(let path, let reason):
            return "safetensors: cannot read \(path): \(reason)"
        }
    }
}
