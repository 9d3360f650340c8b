import VitalSnapImaging
import VitalSnapInference

/// The orienter's input, as Training/orienter_data.py makes it: the part of the photo around the lines the
/// locator found (`PixelRect(around:margin:...)` with the model file's margin; the whole photo where it found
/// none, or for a file without a margin) resized (GrayImage.resize) so its long side is `side`, centred on a `side` x `side` square
/// of grey `fill`, values as the detector's (`DetectorConvention.standardised`: the fill standardises to 0).
/// A change here is a change there, and the model must be trained again.
public enum OrienterConvention {
    public static let side = 128
    public static let fill: UInt8 = 128
    /// Output: one cell of `classCount` logits, class k the photo turned k quarter turns clockwise from upright.
    public static let classCount = 4

    /// The photo's size inside the square: the long side `side`, the short side scaled alike (at least 1).
    public static func fittedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let long = max(1, max(width, height))
        let scale = Double(side) / Double(long)
        func short(_ n: Int) -> Int { max(1, Int((Double(n) * scale + 0.5).rounded(.down))) }
        return width >= height ? (side, short(height)) : (short(width), side)
    }

    /// `fitted` (at most `side` on each side) centred on the square, standardised, into `map`.
    public static func standardise(_ fitted: GrayImage, into map: inout FeatureMap) {
        map.reshape(height: side, width: side, channels: 1)
        let background = DetectorConvention.standardised(fill)
        let x0 = (side - fitted.width) / 2, y0 = (side - fitted.height) / 2
        fitted.pixels.withUnsafeBufferPointer { src in
            map.values.withUnsafeMutableBufferPointer { dst in
                for i in 0..<dst.count { dst[i] = background }
                for y in 0..<fitted.height {
                    let row = (y0 + y) * side + x0
                    for x in 0..<fitted.width { dst[row + x] = DetectorConvention.standardised(src[y * fitted.width + x]) }
                }
            }
        }
    }
}
