/// A tensor read from a safetensors file, converted to Float: `values` in row-major order of `shape`.
public struct Tensor: Sendable, Equatable {
    public var shape: [Int]
    public var values: [Float]

    public init(shape: [Int], values: [Float]) {
        precondition(shape.reduce(1, *) == values.count, "\(values.count) values for shape \(shape)")
        self.shape = shape
        self.values = values
    }
}
