/// A stack of feature planes, stored height x width x channels (channels innermost).
public struct FeatureMap: Sendable {
    public private(set) var height: Int
    public private(set) var width: Int
    public private(set) var channels: Int
    public var values: [Float]

    public init(height: Int, width: Int, channels: Int, fill: Float = 0) {
        self.height = height
        self.width = width
        self.channels = channels
        values = [Float](repeating: fill, count: height * width * channels)
    }
}
