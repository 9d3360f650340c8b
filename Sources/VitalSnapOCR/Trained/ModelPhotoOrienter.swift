import Foundation
import VitalSnapImaging
import VitalSnapInference

/// The trained orienter (Training/train_orienter.py): a small classifier that sees the part of the photo around
/// the lines found in it (the whole photo where none were), shrunk to 128 x 128, and says by how many quarter
/// turns it is turned. Keeps its buffers between photos.
public struct ModelPhotoOrienter: PhotoOrienter {
    private var network: Network
    /// A turn is reported only at least this sure (the model file's `vitalsnap.orienter.min_confidence`,
    /// chosen on the validation photos so that none of the upright ones is turned).
    public let minimumConfidence: Double
    /// A quarter turn this sure is tried when the photo as it is gives nothing (the model file's
    /// `vitalsnap.orienter.sideways_confidence`, chosen on the validation photos shown four ways up; nil: never).
    /// The photo is then read the other quarter turn too, and a different value there refuses both: the
    /// orienter's mistakes among quarter turns are mostly the opposite quarter, which shows the digits upside down.
    public let sidewaysConfidence: Double?
    /// It sees the part of the photo reaching this many digit heights (of the tallest line) beyond the lines
    /// found (the model file's `vitalsnap.orienter.region_margin`); nil: the whole photo (an orienter trained on
    /// whole photos).
    public let regionMargin: Double?
    private var region = GrayImage(width: 0, height: 0)
    private var fitted = GrayImage(width: 0, height: 0)
    private var scratch = GrayImage(width: 0, height: 0)
    private var input = FeatureMap()
    public private(set) var lastTurnProbabilities: TurnProbabilities?

    public init(network: Network, minimumConfidence: Double, sidewaysConfidence: Double? = nil, regionMargin: Double? = nil) {
        self.network = network
        self.minimumConfidence = minimumConfidence
        self.sidewaysConfidence = sidewaysConfidence
        self.regionMargin = regionMargin
    }

    public init(_ model: ReaderModels.Orienter) {
        self.init(
            network: model.network, minimumConfidence: model.minimumConfidence,
            sidewaysConfidence: model.sidewaysConfidence, regionMargin: model.regionMargin)
    }

    /// The most likely turn of `image`, where a locator found `lines`, and its probability, whatever the
    /// threshold (nil for an empty image); throws where the network cannot run.
    public mutating func estimate(_ image: GrayImage, lines: [TextLine]) throws(ReaderStageError) -> OrientationEstimate? {
        lastTurnProbabilities = nil
        guard !image.isEmpty else { return nil }
        if let regionMargin, let part = PixelRect(around: lines, margin: regionMargin, width: image.width, height: image.height) {
            image.crop(part, into: &region)
            return try estimate(region)
        }
        return try estimate(image)
    }

    /// The most likely turn of what the orienter sees, `view`.
    private mutating func estimate(_ view: GrayImage) throws(ReaderStageError) -> OrientationEstimate? {
        guard !view.isEmpty else { return nil }
        let (w, h) = OrienterConvention.fittedSize(width: view.width, height: view.height)
        view.resize(into: &fitted, width: w, height: h, scratch: &scratch)
        OrienterConvention.standardise(fitted, into: &input)
        do {
            try network.run(input)
        } catch {
            throw ReaderStageError(stage: "the trained photo orienter", reason: String(describing: error))
        }
        let (estimate, probabilities) = network.withOutput { output -> (OrientationEstimate?, TurnProbabilities?) in
            guard output.values.count >= OrienterConvention.classCount else { return (nil, nil) }
            let top = output.values.withUnsafeBufferPointer { TopClass($0, offset: 0, count: OrienterConvention.classCount) }
            var p = SIMD4<Double>()
            for k in 0..<OrienterConvention.classCount { p[k] = exp(Double(output.values[k] - top.maximum)) / top.sum }
            return (OrientationEstimate(clockwiseTurns: top.index, confidence: 1 / top.sum), TurnProbabilities(p))
        }
        lastTurnProbabilities = probabilities
        return estimate
    }

    /// The photo's turn where the orienter is sure of it, a quarter turn it guesses at least
    /// `sidewaysConfidence` sure (`isSure` false), else nil (read it as it is): one run of the network.
    public mutating func orientation(of image: GrayImage, lines: [TextLine]) throws(ReaderStageError) -> OrientationEstimate? {
        guard var e = try estimate(image, lines: lines) else { return nil }
        if e.confidence >= minimumConfidence { return e }
        guard let sideways = sidewaysConfidence, e.clockwiseTurns % 2 == 1, e.confidence >= sideways else { return nil }
        e.isSure = false
        return e
    }
}
