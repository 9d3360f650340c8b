import Foundation
import VitalSnapImaging
import VitalSnapInference

/// What the recognizer's file says about it (its safetensors metadata), and the crop standardisation it was
/// trained with.
public struct RecognizerInfo: Sendable {
    /// The characters after the CTC blank, in class order.
    public var alphabet: [Character]
    /// Logits are divided by this before the softmax (temperature scaling, fitted on validation lines).
    public var temperature: Double
    /// A reading whose confidence is below this is not given (chosen on validation data so that at most about
    /// 1% of the readings given are wrong).
    public var minimumConfidence: Double
    /// The other views a value line is read in before it is given (`ViewAgreement`); `minimumConfidence` was
    /// chosen with them. Empty for a file calibrated without them.
    public var views: [LineView]

    /// Crop columns per output column (`vitalsnap.recognizer.stride`).
    public var columnsPerStep: Int
    /// The stride of a file without `vitalsnap.recognizer.stride` (all made before the key was written).
    public static let defaultColumnsPerStep = 4
    /// The strides a crop's width (a multiple of 4, `LineCropper`) divides into whole columns.
    public static let supportedColumnsPerStep: Set<Int> = [2, 4]
    /// Floor of the standard deviation a crop is divided by, so a blank crop is not blown up into noise.
    public static let minimumDeviation: Float = 8

    public init(
        alphabet: [Character], temperature: Double, minimumConfidence: Double, views: [LineView] = [],
        columnsPerStep: Int = defaultColumnsPerStep
    ) {
        self.alphabet = alphabet
        self.temperature = temperature
        self.minimumConfidence = minimumConfidence
        self.views = views
        self.columnsPerStep = columnsPerStep
    }

    /// `(p - mean) / max(std, 8)` over the whole crop, as one channel.
    public static func standardise(_ image: GrayImage, into map: inout FeatureMap) {
        map.reshape(height: image.height, width: image.width, channels: 1)
        var sum: Double = 0, squares: Double = 0
        for p in image.pixels {
            let v = Double(p)
            sum += v
            squares += v * v
        }
        let n = Double(max(1, image.pixels.count))
        let mean = sum / n
        let deviation = max(Float((max(0, squares / n - mean * mean)).squareRoot()), minimumDeviation)
        let m = Float(mean)
        image.pixels.withUnsafeBufferPointer { src in
            map.values.withUnsafeMutableBufferPointer { dst in
                for i in 0..<src.count { dst[i] = (Float(src[i]) - m) / deviation }
            }
        }
    }
}
