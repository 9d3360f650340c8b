import Foundation
import Testing
import VitalSnapImaging
import VitalSnapInference
@testable import VitalSnapOCR

/// A trained stage whose network loads but cannot run on what the reader gives it is an error the user sees,
/// with the stage and the reason, never a photo that seems to show nothing. The failing networks here are one
/// convolution taller than any input the reader makes (the network's own check refuses such an input before
/// computing anything).
struct StageFailureTests {
    /// A network of one `kernelHeight` x 1 convolution without padding from 1 channel to `outChannels`.
    static func tooTallNetwork(outChannels: Int, kernelHeight: Int) throws -> Network {
        let graph: [String: Any] = [
            "format": 1, "input_channels": 1,
            "layers": [[
                "name": "too-tall", "op": "conv2d", "inputs": ["input"], "in": 1, "out": outChannels,
                "kernel": [kernelHeight, 1], "padding": [0, 0], "activation": "none",
            ]],
        ]
        let graphJSON = String(decoding: try JSONSerialization.data(withJSONObject: graph), as: UTF8.self)
        let weights = outChannels * kernelHeight, biases = outChannels
        let header: [String: Any] = [
            "__metadata__": [NetworkGraph.metadataKey: graphJSON],
            "too-tall.weight": ["dtype": "F32", "shape": [outChannels, 1, kernelHeight, 1], "data_offsets": [0, 4 * weights]],
            "too-tall.bias": ["dtype": "F32", "shape": [outChannels], "data_offsets": [4 * weights, 4 * (weights + biases)]],
        ]
        let json = [UInt8](try JSONSerialization.data(withJSONObject: header))
        let length = (0..<8).map { UInt8(truncatingIfNeeded: json.count >> (8 * $0)) }
        let data = [UInt8](repeating: 0, count: 4 * (weights + biases))
        return try Network(file: SafeTensorsFile(bytes: length + json + data))
    }

    static func photo() throws -> GrayImage {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/glucose-g1/glucose-g1-01.jpg").path
        return try ImageDecoder.decode(contentsOf: path).image
    }

    static func glucoseMeter() throws -> PeripheralDefinition {
        try #require(try PeripheralCatalog.builtIn()[9])
    }

    /// Either detector that locates a glucose meter's photo: the first (models without a photo detector) or the
    /// photo detector.
    @Test(arguments: [false, true]) func aDetectorThatCannotRunIsAnErrorWithItsReason(photoDetector: Bool) throws {
        var models = try ReaderModels.bundled()
        let broken = try Self.tooTallNetwork(outChannels: DetectorConvention.outputChannels, kernelHeight: 300)
        if photoDetector {
            try #require(models.photoDetector != nil, "the bundled models have a photo detector")
            models.photoDetector?.network = broken
        } else {
            models.detector = broken
            models.photoDetector = nil
        }
        var reader = DisplayReader(peripheral: try Self.glucoseMeter(), reader: .model(models))
        let error = #expect(throws: ReaderStageError.self) { try reader.read(image: try Self.photo()) }
        #expect(error?.stage == "the trained line detector")
        #expect(error?.reason.contains("too-tall") == true, "\(String(describing: error))")
    }

    @Test func aRecognizerThatCannotRunIsAnErrorWithItsReason() throws {
        var models = try ReaderModels.bundled()
        // Taller than the recognizer's crops (32 rows).
        models.recognizer = try Self.tooTallNetwork(outChannels: models.recognizerInfo.alphabet.count + 1, kernelHeight: 40)
        var reader = DisplayReader(peripheral: try Self.glucoseMeter(), reader: .model(models))
        let error = #expect(throws: ReaderStageError.self) { try reader.read(image: try Self.photo()) }
        #expect(error?.stage == "the trained character recognizer")
    }

    @Test func anOrienterThatCannotRunIsAnErrorWithItsReason() throws {
        var models = try ReaderModels.bundled()
        let orienter = try #require(models.orienter)
        models.orienter = ReaderModels.Orienter(
            network: try Self.tooTallNetwork(outChannels: OrienterConvention.classCount, kernelHeight: 200),
            minimumConfidence: orienter.minimumConfidence, sidewaysConfidence: orienter.sidewaysConfidence,
            regionMargin: orienter.regionMargin)
        var reader = DisplayReader(peripheral: try Self.glucoseMeter(), reader: .model(models))
        let error = #expect(throws: ReaderStageError.self) { try reader.read(image: try Self.photo()) }
        #expect(error?.stage == "the trained photo orienter")
        // A live reading does not stand its frames upright, so the orienter is not asked.
        var live = LiveReader(peripheral: try Self.glucoseMeter(), unit: nil, reader: .model(models))
        _ = try live.process(try Self.photo(), timestamp: 0)
    }

    /// Read from a file, as `vitalsnap batch` and `eval` read, the failure is the photo's result: status error,
    /// the stage and the reason as its message; no reading.
    @Test func aFileReadWithAStageThatCannotRunIsAnError() throws {
        var models = try ReaderModels.bundled()
        models.detector = try Self.tooTallNetwork(outChannels: DetectorConvention.outputChannels, kernelHeight: 300)
        models.photoDetector = nil  // the first detector locates the glucose meter's photo
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Samples/stills/glucose-g1/glucose-g1-01.jpg").path
        var reader = DisplayReader(peripheral: try Self.glucoseMeter(), reader: .model(models))
        let result = reader.read(file: path)
        #expect(result.status == .error)
        #expect(result.reading == nil)
        #expect(result.message?.hasPrefix("the trained line detector could not run: ") == true, "\(result.message ?? "")")
        // The same file with the bundled models reads.
        var working = DisplayReader(peripheral: try Self.glucoseMeter(), reader: .model(try ReaderModels.bundled()))
        #expect(working.read(file: path).status != .error)
    }
}
