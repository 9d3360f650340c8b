/// A stack of feature planes, stored height x width x channels (channels innermost): the value of channel `c`
/// at row `y`, column `x` is `values[(y * width + x) * channels + c]`.
public struct FeatureMap: Sendable, Equatable {
    public private(set) var height: Int
    public private(set) var width: Int
    public private(set) var channels: Int
    /// `height * width * channels` values. Writable element by element; changing its count breaks the map's
    /// invariant and is caught by the kernels' preconditions.
    public var values: [Float]

    public init(height: Int, width: Int, channels: Int, fill: Float = 0) {
        precondition(height >= 0 && width >= 0 && channels >= 0, "a feature map's sizes cannot be negative")
        self.height = height
        self.width = width
        self.channels = channels
        values = [Float](repeating: fill, count: height * width * channels)
    }

    /// Wraps HWC `values`; their count must be `height * width * channels`.
    public init(height: Int, width: Int, channels: Int, values: [Float]) {
        precondition(height >= 0 && width >= 0 && channels >= 0, "a feature map's sizes cannot be negative")
        precondition(values.count == height * width * channels,
                     "\(values.count) values for a \(height)x\(width)x\(channels) feature map")
        self.height = height
        self.width = width
        self.channels = channels
        self.values = values
    }

    /// An empty map (0 x 0 x 0) that holds no storage.
    public init() {
        self.init(height: 0, width: 0, channels: 0)
    }

    public subscript(y: Int, x: Int, c: Int) -> Float {
        get { values[(y * width + x) * channels + c] }
        set { values[(y * width + x) * channels + c] = newValue }
    }

    /// Gives the map new sizes, keeping its storage: the capacity never shrinks, so a map reshaped back and forth
    /// between sizes it has held allocates nothing. The values are unspecified afterwards (old contents or
    /// zeros); kernels that reshape their output overwrite all of it.
    public mutating func reshape(height: Int, width: Int, channels: Int) {
        precondition(height >= 0 && width >= 0 && channels >= 0, "a feature map's sizes cannot be negative")
        let count = height * width * channels
        if values.count > count {
            values.removeLast(values.count - count)
        } else if values.count < count {
            values.append(contentsOf: repeatElement(0, count: count - values.count))
        }
        self.height = height
        self.width = width
        self.channels = channels
    }

    /// The number of values the storage holds without growing.
    public var capacity: Int { values.capacity }
}
