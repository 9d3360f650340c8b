import Foundation

/// A parsed safetensors file: an 8-byte little-endian header length N, N bytes of JSON
/// `{"__metadata__": {string: string}, name: {"dtype", "shape", "data_offsets": [begin, end]}}`, then the data
/// the offsets point into. F32 and F16 tensors are read (as Float); any other dtype is refused at parse time.
///
/// Parsing checks everything a tensor read relies on, so reading never goes out of bounds: the header length
/// against `maximumHeaderLength` and the bytes present, each entry's fields, offsets inside the data and not
/// overlapping other tensors, and the shape's element count against the byte length. Nothing is allocated in
/// proportion to a declared size before it has been checked against the bytes actually there.
public struct SafeTensorsFile: Sendable {
    /// The largest header accepted (the reference implementation's limit).
    public static let maximumHeaderLength = 100_000_000

    public enum DType: String, Sendable, Equatable {
        case f32 = "F32"
        case f16 = "F16"

        public var byteSize: Int { self == .f32 ? 4 : 2 }
    }

    public struct TensorInfo: Sendable, Equatable {
        public let dtype: DType
        public let shape: [Int]
        /// The tensor's bytes, relative to the start of the data (after the header).
        public let dataOffsets: Range<Int>
        public var elementCount: Int { shape.reduce(1, *) }
    }

    /// `__metadata__`, empty when the file has none.
    public let metadata: [String: String]
    /// Every tensor of the file by name.
    public let tensors: [String: TensorInfo]
    private let bytes: [UInt8]
    private let dataStart: Int

    /// The tensor names, sorted.
    public var tensorNames: [String] { tensors.keys.sorted() }

    public init(bytes: [UInt8]) throws {
        guard bytes.count >= 8 else { throw SafeTensorsError.tooShort(byteCount: bytes.count) }
        var declared: UInt64 = 0
        for i in 0..<8 { declared |= UInt64(bytes[i]) << (8 * UInt64(i)) }
        guard declared <= UInt64(Self.maximumHeaderLength) else {
            throw SafeTensorsError.headerTooLarge(declared: declared, limit: Self.maximumHeaderLength)
        }
        let headerLength = Int(declared)
        guard headerLength <= bytes.count - 8 else {
            throw SafeTensorsError.truncatedHeader(declared: headerLength, available: bytes.count - 8)
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes[8 ..< 8 + headerLength]))
        } catch {
            throw SafeTensorsError.headerNotJSON("\(error)")
        }
        guard let header = object as? [String: Any] else { throw SafeTensorsError.headerNotJSON("not an object") }

        let dataLength = bytes.count - 8 - headerLength
        var metadata: [String: String] = [:]
        var tensors: [String: TensorInfo] = [:]
        for (name, value) in header {
            if name == "__metadata__" {
                guard let entries = value as? [String: Any] else { throw SafeTensorsError.malformedMetadata("is not an object") }
                for (key, value) in entries {
                    guard let string = value as? String else {
                        throw SafeTensorsError.malformedMetadata("value of '\(key)' is not a string")
                    }
                    metadata[key] = string
                }
                continue
            }
            tensors[name] = try Self.entry(name, value, dataLength: dataLength)
        }
        // No two tensors share bytes: sorted by where they begin, each ends before the next begins. (Empty
        // tensors own no bytes and overlap nothing.)
        let placed = tensors.filter { !$0.value.dataOffsets.isEmpty }
            .sorted { ($0.value.dataOffsets.lowerBound, $0.key) < ($1.value.dataOffsets.lowerBound, $1.key) }
        for (a, b) in zip(placed, placed.dropFirst()) where b.value.dataOffsets.lowerBound < a.value.dataOffsets.upperBound {
            throw SafeTensorsError.overlappingTensors(a.key, b.key)
        }
        self.metadata = metadata
        self.tensors = tensors
        self.bytes = bytes
        dataStart = 8 + headerLength
    }

    public init(data: Data) throws {
        try self.init(bytes: [UInt8](data))
    }

    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SafeTensorsError.unreadable(path: url.path, reason: "\(error)")
        }
        try self.init(data: data)
    }

    /// The named tensor as Float values.
    public func tensor(_ name: String) throws -> Tensor {
        guard let info = tensors[name] else { throw SafeTensorsError.missingTensor(name) }
        let count = info.elementCount
        var values = [Float](repeating: 0, count: count)
        bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress! + dataStart + info.dataOffsets.lowerBound
            switch info.dtype {
            case .f32:
                for i in 0..<count {
                    values[i] = Float(bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
                }
            case .f16:
                for i in 0..<count {
                    values[i] = Float16Bits.float(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
                }
            }
        }
        return Tensor(shape: info.shape, values: values)
    }

    private static func entry(_ name: String, _ value: Any, dataLength: Int) throws -> TensorInfo {
        guard let fields = value as? [String: Any] else {
            throw SafeTensorsError.malformedEntry(tensor: name, reason: "is not an object")
        }
        guard let dtypeName = fields["dtype"] as? String else {
            throw SafeTensorsError.malformedEntry(tensor: name, reason: "dtype is missing or not a string")
        }
        guard let dtype = DType(rawValue: dtypeName) else {
            throw SafeTensorsError.unsupportedDType(tensor: name, dtype: dtypeName)
        }
        guard let shapeValues = fields["shape"] as? [Any] else {
            throw SafeTensorsError.malformedEntry(tensor: name, reason: "shape is missing or not an array")
        }
        var shape: [Int] = []
        for dimension in shapeValues {
            guard let n = JSONValue.integer(dimension), n >= 0 else {
                throw SafeTensorsError.malformedEntry(tensor: name, reason: "shape \(shapeValues) has a dimension that is not a non-negative integer")
            }
            shape.append(n)
        }
        guard let offsets = fields["data_offsets"] as? [Any], offsets.count == 2,
              let begin = JSONValue.integer(offsets[0]), let end = JSONValue.integer(offsets[1]), begin >= 0, end >= 0
        else {
            throw SafeTensorsError.malformedEntry(tensor: name, reason: "data_offsets is not a pair of non-negative integers")
        }
        guard begin <= end else { throw SafeTensorsError.misorderedOffsets(tensor: name, begin: begin, end: end) }
        guard end <= dataLength else { throw SafeTensorsError.offsetsOutsideData(tensor: name, end: end, dataLength: dataLength) }
        // The element count times the dtype's size, without overflowing on absurd shapes.
        var bytesNeeded = dtype.byteSize
        var overflow = false
        for dimension in shape where !overflow {
            (bytesNeeded, overflow) = bytesNeeded.multipliedReportingOverflow(by: dimension)
        }
        guard !overflow, bytesNeeded == end - begin else {
            throw SafeTensorsError.sizeMismatch(tensor: name, shape: shape, dtype: dtypeName, byteLength: end - begin)
        }
        return TensorInfo(dtype: dtype, shape: shape, dataOffsets: begin ..< end)
    }
}
