import VitalSnapImaging
import VitalSnapInference

/// The detector's input and output conventions (Training/detector_data.py, Training/README.md).
public enum DetectorConvention {
    /// The frame's long side at the network's input, for a file that does not say (`vitalsnap.detector.long_side`
    /// names the one a detector was trained at: a larger one sees small rows, a display held far off, at more
    /// pixels and costs the square of the ratio in time).
    public static let longSide = 256
    /// The long sides this reader runs a detector at: multiples of `multiple` in this range.
    public static let supportedLongSides = 128...1024
    /// Both input sides are multiples of this (the network halves four times).
    public static let multiple = 16
    /// Input pixels per output cell.
    public static let stride = 4
    /// Output channels: 4 class logits (background, value, auxiliary, label), ln(digit height), cos and sin of
    /// the reading direction.
    public static let outputChannels = 7
    public static let classCount = 4
    public static let valueClass: UInt8 = 1
    public static let auxiliaryClass: UInt8 = 2
    /// Digit heights left out of the core at each end of a line; added back when a line is rebuilt from cells.
    public static let coreEndInset = 0.15

    /// The long side `longSide`, the short side scaled alike and rounded to a multiple of `multiple` (at least one).
    public static func inputSize(width: Int, height: Int, longSide: Int = longSide) -> (width: Int, height: Int) {
        let long = max(width, height)
        let scale = Double(longSide) / Double(max(1, long))
        func side(_ n: Int) -> Int {
            max(multiple, Int((Double(n) * scale / Double(multiple)).rounded(.toNearestOrEven)) * multiple)
        }
        return width >= height ? (longSide, side(height)) : (side(width), longSide)
    }

    /// `side` times `scale`, rounded to a multiple of `multiple` (a detector shown its input larger than it was
    /// trained at: `ReaderStages.closerLocator`).
    public static func longSide(_ side: Int, scaledBy scale: Double) -> Int {
        max(multiple, Int((Double(side) * scale / Double(multiple)).rounded()) * multiple)
    }

    /// Whether a detector trained at `side` can run here.
    public static func supports(longSide side: Int) -> Bool {
        supportedLongSides.contains(side) && side % multiple == 0
    }

    /// A grey level as the network's input value, `(p - 128) / 64` (the orienter's input too).
    @inline(__always)
    public static func standardised(_ grey: UInt8) -> Float { (Float(grey) - 128) / 64 }

    /// Grey levels to the network's input values (`standardised`), as one channel.
    public static func standardise(_ image: GrayImage, into map: inout FeatureMap) {
        map.reshape(height: image.height, width: image.width, channels: 1)
        image.pixels.withUnsafeBufferPointer { src in
            map.values.withUnsafeMutableBufferPointer { dst in
                for i in 0..<src.count { dst[i] = standardised(src[i]) }
            }
        }
    }
}
