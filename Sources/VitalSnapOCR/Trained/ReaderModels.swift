import Foundation
import VitalSnapInference
import VitalSnapModels

/// The trained reader's networks, loaded once and shared: every `ModelLineLocator`, `ModelCharacterRecognizer`
/// and `ModelPhotoOrienter` made from them shares their weights and keeps its own buffers. The orienter is
/// optional: a folder without it (a model retrained for one meter) reads photos as they are.
public struct ReaderModels: Sendable {
    public static let detectorFile = "line-detector.safetensors"
    public static let recognizerFile = "line-recognizer.safetensors"
    public static let orienterFile = "photo-orienter.safetensors"
    public static let secondDetectorFile = "second-line-detector.safetensors"
    public static let secondRecognizerFile = "second-line-recognizer.safetensors"
    public static let photoDetectorFile = "photo-line-detector.safetensors"

    public var detector: Network
    /// The long side the detector was trained at, which it runs at (`vitalsnap.detector.long_side`).
    public var detectorLongSide: Int
    public var recognizer: Network
    public var recognizerInfo: RecognizerInfo
    /// The orienter, if the folder has one.
    public var orienter: Orienter?
    /// A second detector, if the folder has one: the lines it finds are read where those of `detector` give
    /// no reading (`ReaderStages.secondLocator`).
    public var secondDetector: Detector?
    /// A detector for photos of a medical device's display, if the folder has one: it locates their lines in
    /// place of `detector` (`ReaderStages.photoLocator`).
    public var photoDetector: Detector?
    /// A second recognizer, if the folder has one: trained apart from `recognizer`, it reads a photo again where
    /// `recognizer` was unsure of a value, and its reading is taken only where it is sure of the very text the
    /// first one read (`ReaderStages.secondRecognition`).
    public var secondRecognizer: SecondRecognizer?
    /// Who reads what these models refuse (`ReaderStages.secondOpinion`); `.none` to measure them alone.
    public var secondOpinion: ReaderStages.SecondOpinion = .rules

    /// A detector besides the first one (the second detector, the photo detector), with the long side it runs at.
    public struct Detector: Sendable {
        public var network: Network
        public var longSide: Int
    }

    /// A recognizer asked after the first one, with what its file says about reading with it (its own
    /// temperature, threshold and views, chosen by its own calibration).
    public struct SecondRecognizer: Sendable {
        public var network: Network
        public var info: RecognizerInfo
    }

    /// The orienter's network and what its file says about using it.
    public struct Orienter: Sendable {
        public var network: Network
        /// The confidence it must reach to turn a photo.
        public var minimumConfidence: Double
        /// The confidence of a quarter turn that is tried when the photo as it is gives nothing (nil for a file
        /// without it: never).
        public var sidewaysConfidence: Double?
        /// The digit heights beyond the lines found that it sees (nil for a file without it: the whole photo).
        public var regionMargin: Double?
    }

    /// Loads the files from `directory` and checks that they follow the conventions this code implements.
    public init(directory: URL) throws(ReaderModelError) {
        let detectorURL = directory.appendingPathComponent(Self.detectorFile)
        let recognizerURL = directory.appendingPathComponent(Self.recognizerFile)
        let detectorFile: SafeTensorsFile, recognizerFile: SafeTensorsFile
        do {
            detectorFile = try SafeTensorsFile(contentsOf: detectorURL)
            recognizerFile = try SafeTensorsFile(contentsOf: recognizerURL)
            detector = try Network(file: detectorFile)
            recognizer = try Network(file: recognizerFile)
        } catch {
            throw .unreadable(directory.path, String(describing: error))
        }
        detectorLongSide = try Self.checkDetector(detectorFile, at: detectorURL)
        recognizerInfo = try Self.checkRecognizer(recognizerFile, at: recognizerURL)
        orienter = try Self.loadOrienter(directory.appendingPathComponent(Self.orienterFile))
        secondDetector = try Self.loadOptionalDetector(directory.appendingPathComponent(Self.secondDetectorFile))
        secondRecognizer = try Self.loadSecondRecognizer(directory.appendingPathComponent(Self.secondRecognizerFile))
        photoDetector = try Self.loadOptionalDetector(directory.appendingPathComponent(Self.photoDetectorFile))
    }

    /// What a recognizer file says about reading with it, after checking it follows this reader's conventions.
    private static func checkRecognizer(_ file: SafeTensorsFile, at recognizerURL: URL) throws(ReaderModelError) -> RecognizerInfo {
        let r = file.metadata
        try expect(r, "vitalsnap.recognizer.crop_height", LineCropper.height, in: recognizerURL)
        guard let alphabet = r["vitalsnap.recognizer.alphabet"], !alphabet.isEmpty,
              let temperature = r["vitalsnap.recognizer.temperature"].flatMap(Double.init), temperature > 0,
              let threshold = r["vitalsnap.recognizer.min_confidence"].flatMap(Double.init), (0...1).contains(threshold)
        else {
            throw .convention(recognizerURL.path, "alphabet, temperature or min_confidence missing or invalid")
        }
        var views: [LineView] = []
        if let text = r["vitalsnap.recognizer.views"] {
            guard let parsed = LineView.parse(text) else {
                throw .convention(recognizerURL.path, "vitalsnap.recognizer.views is not a list of [height, shift, length]")
            }
            views = parsed
            // The threshold means what it says only with the views scored as it was chosen with them.
            guard r["vitalsnap.recognizer.view_score"] == ViewAgreement.score else {
                throw .convention(
                    recognizerURL.path,
                    "vitalsnap.recognizer.view_score is \(r["vitalsnap.recognizer.view_score"] ?? "missing"), "
                        + "this reader scores views by \(ViewAgreement.score)")
            }
        }
        var columnsPerStep = RecognizerInfo.defaultColumnsPerStep
        if let text = r["vitalsnap.recognizer.stride"] {
            guard let value = Int(text), RecognizerInfo.supportedColumnsPerStep.contains(value) else {
                throw .convention(
                    recognizerURL.path,
                    "vitalsnap.recognizer.stride is \(text), this reader reads crops at "
                        + RecognizerInfo.supportedColumnsPerStep.sorted().map(String.init).joined(separator: " or ")
                        + " columns per output")
            }
            columnsPerStep = value
        }
        return RecognizerInfo(
            alphabet: Array(alphabet), temperature: temperature, minimumConfidence: threshold, views: views,
            columnsPerStep: columnsPerStep)
    }

    /// The long side a detector file runs at, after checking it follows this reader's conventions.
    private static func checkDetector(_ file: SafeTensorsFile, at url: URL) throws(ReaderModelError) -> Int {
        let d = file.metadata
        guard let longSide = d["vitalsnap.detector.long_side"].flatMap(Int.init), DetectorConvention.supports(longSide: longSide) else {
            throw .convention(
                url.path,
                "vitalsnap.detector.long_side is \(d["vitalsnap.detector.long_side"] ?? "missing"), this reader runs a detector at "
                    + "a multiple of \(DetectorConvention.multiple) from \(DetectorConvention.supportedLongSides.lowerBound) "
                    + "to \(DetectorConvention.supportedLongSides.upperBound)")
        }
        try expect(d, "vitalsnap.detector.stride", DetectorConvention.stride, in: url)
        return longSide
    }

    /// The file at `url` and its network, or nil where the folder has no such file.
    private static func loadOptional(_ url: URL) throws(ReaderModelError) -> (file: SafeTensorsFile, network: Network)? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let file = try SafeTensorsFile(contentsOf: url)
            return (file, try Network(file: file))
        } catch {
            throw .unreadable(url.path, String(describing: error))
        }
    }

    private static func loadOptionalDetector(_ url: URL) throws(ReaderModelError) -> Detector? {
        guard let (file, network) = try loadOptional(url) else { return nil }
        return Detector(network: network, longSide: try checkDetector(file, at: url))
    }

    private static func loadSecondRecognizer(_ url: URL) throws(ReaderModelError) -> SecondRecognizer? {
        guard let (file, network) = try loadOptional(url) else { return nil }
        return SecondRecognizer(network: network, info: try checkRecognizer(file, at: url))
    }

    private static func loadOrienter(_ url: URL) throws(ReaderModelError) -> Orienter? {
        guard let (file, network) = try loadOptional(url) else { return nil }
        try expect(file.metadata, "vitalsnap.orienter.side", OrienterConvention.side, in: url)
        guard network.graph.outputChannels == OrienterConvention.classCount else {
            throw .convention(
                url.path,
                "the orienter gives \(network.graph.outputChannels) outputs, this reader needs \(OrienterConvention.classCount)")
        }
        guard let threshold = file.metadata["vitalsnap.orienter.min_confidence"].flatMap(Double.init),
              (0...1).contains(threshold) else {
            throw .convention(url.path, "vitalsnap.orienter.min_confidence missing or not a probability")
        }
        var sideways: Double?
        if let text = file.metadata["vitalsnap.orienter.sideways_confidence"] {
            guard let value = Double(text), (0...1).contains(value) else {
                throw .convention(url.path, "vitalsnap.orienter.sideways_confidence is not a probability")
            }
            sideways = value
        }
        var margin: Double?
        if let text = file.metadata["vitalsnap.orienter.region_margin"] {
            guard let value = Double(text), value >= 0, value.isFinite else {
                throw .convention(url.path, "vitalsnap.orienter.region_margin is not a margin in digit heights")
            }
            margin = value
        }
        return Orienter(network: network, minimumConfidence: threshold, sidewaysConfidence: sideways, regionMargin: margin)
    }

    /// The models shipped with VitalSnap (`Models/reader`).
    public static func bundled() throws(ReaderModelError) -> ReaderModels {
        guard let directory = ModelFiles.directory else { throw .missing("the tool's bundled Models/reader folder") }
        let detector = directory.appendingPathComponent(detectorFile).path
        guard FileManager.default.fileExists(atPath: detector) else { throw .missing(detector) }
        return try ReaderModels(directory: directory)
    }

    private static func expect(_ metadata: [String: String], _ key: String, _ value: Int, in url: URL) throws(ReaderModelError) {
        guard metadata[key].flatMap(Int.init) == value else {
            throw .convention(url.path, "\(key) is \(metadata[key] ?? "missing"), this reader needs \(value)")
        }
    }
}

public enum ReaderModelError: Error, CustomStringConvertible, Equatable {
    case missing(String)
    case unreadable(String, String)
    case convention(String, String)

    public var description: String {
        switch self {
        case .missing(let what): "no trained reader models: \(what) is missing"
        case .unreadable(let path, let why): "the reader models in \(path) cannot be loaded: \(why)"
        case .convention(let path, let why): "\(path) was made for another reader: \(why)"
        }
    }
}
