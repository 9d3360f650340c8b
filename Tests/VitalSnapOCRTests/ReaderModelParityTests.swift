import Foundation
import Testing
import VitalSnapInference
import VitalSnapModels
@testable import VitalSnapOCR

/// The committed models, run by the Swift kernels on the committed fixture inputs, give what PyTorch gave for
/// the same files when Training/export.py wrote them.
@Suite struct ReaderModelParityTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/reader-parity.safetensors")
    static let tolerance: Float = 1e-4

    func map(_ file: SafeTensorsFile, _ name: String) throws -> FeatureMap {
        let t = try file.tensor(name)
        #expect(t.shape.count == 3)
        return FeatureMap(height: t.shape[0], width: t.shape[1], channels: t.shape[2], values: t.values)
    }

    /// Largest difference, relative to the value's size where it is above 1.
    func difference(_ a: FeatureMap, _ b: FeatureMap) -> Float {
        zip(a.values, b.values).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? .infinity
    }

    func check(_ network: Network, input: String, output: String, fixture: URL = Self.fixture) throws {
        let file = try SafeTensorsFile(contentsOf: fixture)
        var network = network
        try network.run(try map(file, input))
        let expected = try map(file, output)
        let got = network.output
        #expect((got.height, got.width, got.channels) == (expected.height, expected.width, expected.channels))
        let diff = difference(got, expected)
        #expect(diff <= Self.tolerance, "\(output): largest difference \(diff)")
    }

    @Test func detectorMatchesPyTorch() throws {
        try check(try ReaderModels.bundled().detector, input: "detector.input", output: "detector.output")
    }

    @Test func recognizerMatchesPyTorch() throws {
        try check(try ReaderModels.bundled().recognizer, input: "recognizer.input", output: "recognizer.output")
    }

    @Test func secondRecognizerMatchesPyTorch() throws {
        let second = try #require(try ReaderModels.bundled().secondRecognizer, "the bundled models have a second recognizer")
        let fixture = Self.fixture.deletingLastPathComponent().appendingPathComponent("second-recognizer-parity.safetensors")
        try check(second.network, input: "recognizer.input", output: "recognizer.output", fixture: fixture)
        #expect(second.info.alphabet == Array("0123456789.-:LOHIEro"))
        #expect(second.network.graph.outputChannels == second.info.alphabet.count + 1)
        #expect(!second.info.views.isEmpty)
    }

    @Test func modelsFollowTheConventionsOfThisReader() throws {
        let models = try ReaderModels.bundled()
        // The stride the file states is the one its network has: the fixture crop's columns per output column.
        let file = try SafeTensorsFile(contentsOf: Self.fixture)
        let input = try file.tensor("recognizer.input"), output = try file.tensor("recognizer.output")
        #expect(input.shape[1] == output.shape[1] * models.recognizerInfo.columnsPerStep)
        #expect(models.recognizerInfo.alphabet == Array("0123456789.-:LOHIEro"))
        #expect(models.detector.graph.outputChannels == DetectorConvention.outputChannels)
        #expect(models.recognizer.graph.outputChannels == models.recognizerInfo.alphabet.count + 1)
        #expect((0.0...1.0).contains(models.recognizerInfo.minimumConfidence))
        // The threshold was chosen with the views (calibrate.py); without them it would let through readings
        // that change when the crop moves.
        #expect(!models.recognizerInfo.views.isEmpty)
        #expect(ReaderStages.model(models).agreement.views == models.recognizerInfo.views)
    }

    /// The bundled files copied to a fresh folder, the recognizer's metadata text `from` replaced by `to` (of
    /// the same length, so the safetensors header keeps its size), then loaded.
    func load(replacing from: String, with to: String) throws -> ReaderModels {
        precondition(from.utf8.count == to.utf8.count)
        let copy = try LineModelsCopy("reader-models")
        defer { copy.remove() }
        let recognizer = copy.folder.appendingPathComponent(ReaderModels.recognizerFile)
        var bytes = [UInt8](try Data(contentsOf: recognizer))
        let at = try #require(LineModelsCopy.offset(of: from, in: bytes))
        bytes.replaceSubrange(at..<(at + from.utf8.count), with: Array(to.utf8))
        try Data(bytes).write(to: recognizer)
        return try ReaderModels(directory: copy.folder)
    }

    @Test func aThresholdChosenWithAnotherViewScoreIsRefused() throws {
        // The unchanged files load (the same text written back).
        let score = "\"\(ViewAgreement.score)\""
        _ = try load(replacing: score, with: score)
        let other = "least-of-all-5".padding(toLength: ViewAgreement.score.utf8.count, withPad: " ", startingAt: 0)
        #expect(throws: ReaderModelError.self) { try load(replacing: score, with: "\"\(other)\"") }
        #expect(throws: ReaderModelError.self) {
            try load(replacing: "vitalsnap.recognizer.view_score", with: "vitalsnap.recognizer.view_scorX")
        }
    }

    /// The recognizer's stride is read from its file (4 where the key is absent, as before it was written), and
    /// a stride the crops' widths (multiples of 4) do not divide into is refused.
    @Test func theRecognizerStrideIsReadAndChecked() throws {
        let copy = try LineModelsCopy("recognizer-stride")
        defer { copy.remove() }
        try copy.changeRecognizerMetadata { $0["vitalsnap.recognizer.stride"] = nil }
        #expect(try ReaderModels(directory: copy.folder).recognizerInfo.columnsPerStep == 4)
        try copy.changeRecognizerMetadata { $0["vitalsnap.recognizer.stride"] = "2" }
        #expect(try ReaderModels(directory: copy.folder).recognizerInfo.columnsPerStep == 2)
        for bad in ["3", "8", "0", "four"] {
            try copy.changeRecognizerMetadata { $0["vitalsnap.recognizer.stride"] = bad }
            #expect(throws: ReaderModelError.self) { try ReaderModels(directory: copy.folder) }
        }
    }

    /// The detector runs at the long side its file names (a detector trained at 384 or 512 px sees small rows at
    /// more pixels), and a side this reader cannot run at is refused.
    @Test func theDetectorLongSideIsReadAndChecked() throws {
        let copy = try LineModelsCopy("detector-long-side")
        defer { copy.remove() }
        #expect(try ReaderModels(directory: copy.folder).detectorLongSide == DetectorConvention.longSide)
        try copy.changeMetadata(of: ReaderModels.detectorFile) { $0["vitalsnap.detector.long_side"] = "512" }
        let models = try ReaderModels(directory: copy.folder)
        #expect(models.detectorLongSide == 512)
        let size = DetectorConvention.inputSize(width: 1280, height: 720, longSide: 512)
        #expect(size.width == 512 && size.height == 288)
        for bad in ["250", "96", "2048", "big"] {
            try copy.changeMetadata(of: ReaderModels.detectorFile) { $0["vitalsnap.detector.long_side"] = bad }
            #expect(throws: ReaderModelError.self) { try ReaderModels(directory: copy.folder) }
        }
        try copy.changeMetadata(of: ReaderModels.detectorFile) { $0["vitalsnap.detector.long_side"] = nil }
        #expect(throws: ReaderModelError.self) { try ReaderModels(directory: copy.folder) }
    }

    /// The second detector is optional: none without its file, loaded with its own long side where there is
    /// one, and a file that is no detector of this reader is refused with its path.
    @Test func theSecondDetectorIsOptionalAndChecked() throws {
        try expectOptionalDetector(ReaderModels.secondDetectorFile, \.secondDetector, "a broken second detector was loaded")
    }

    /// The photo detector is optional: none without its file, loaded with its own long side where there is one
    /// and made the stages' photo locator, and a file that is no detector of this reader is refused with its path.
    @Test func thePhotoDetectorIsOptionalAndChecked() throws {
        try expectOptionalDetector(
            ReaderModels.photoDetectorFile, \.photoDetector, "a broken photo detector was loaded", locator: \.photoLocator)
    }

    /// A detector file besides the first (`file`, loaded as `detector`): none without it; with it, loaded at its
    /// own long side (and made the stages' `locator`, where given); refused with its path when it breaks the
    /// detector's conventions or is no model at all.
    func expectOptionalDetector(
        _ file: String, _ detector: KeyPath<ReaderModels, ReaderModels.Detector?>, _ brokenLoaded: Comment,
        locator: KeyPath<ReaderStages, (any LineLocator)?>? = nil
    ) throws {
        let copy = try LineModelsCopy(file)
        defer { copy.remove() }
        let without = try ReaderModels(directory: copy.folder)
        #expect(without[keyPath: detector] == nil)
        if let locator { #expect(ReaderStages.model(without)[keyPath: locator] == nil) }
        let copied = copy.folder.appendingPathComponent(file)
        try FileManager.default.copyItem(at: copy.source.appendingPathComponent(file), to: copied)
        try copy.changeMetadata(of: file) { $0["vitalsnap.detector.long_side"] = "320" }
        let models = try ReaderModels(directory: copy.folder)
        #expect(models[keyPath: detector]?.longSide == 320)
        #expect(models.detectorLongSide == DetectorConvention.longSide, "each detector runs at its own long side")
        if let locator { #expect(ReaderStages.model(models)[keyPath: locator] is ModelLineLocator) }
        try copy.changeMetadata(of: file) { $0["vitalsnap.detector.stride"] = "8" }
        #expect(throws: ReaderModelError.self) { try ReaderModels(directory: copy.folder) }
        try Data("not a model".utf8).write(to: copied)
        expectRefused(copy, naming: file, brokenLoaded)
    }

    /// The second recognizer is optional: none without its file; loaded with its own threshold where there is
    /// one; a file that breaks the recognizer's conventions is refused with its path.
    @Test func theSecondRecognizerIsOptionalAndChecked() throws {
        let copy = try LineModelsCopy("second-recognizer")
        defer { copy.remove() }
        #expect(try ReaderModels(directory: copy.folder).secondRecognizer == nil)
        let second = copy.folder.appendingPathComponent(ReaderModels.secondRecognizerFile)
        try FileManager.default.copyItem(at: copy.folder.appendingPathComponent(ReaderModels.recognizerFile), to: second)
        try copy.changeMetadata(of: ReaderModels.secondRecognizerFile) { $0["vitalsnap.recognizer.min_confidence"] = "0.81" }
        let models = try ReaderModels(directory: copy.folder)
        #expect(models.secondRecognizer?.info.minimumConfidence == 0.81)
        #expect(models.recognizerInfo.minimumConfidence != 0.81, "each recognizer keeps its own threshold")
        #expect(ReaderStages.model(models).secondRecognition?.minimumConfidence == 0.81)
        try copy.changeMetadata(of: ReaderModels.secondRecognizerFile) { $0["vitalsnap.recognizer.min_confidence"] = "1.5" }
        expectRefused(copy, naming: ReaderModels.secondRecognizerFile, "a second recognizer with no usable threshold was loaded")
    }

    /// The copied folder does not load, and the error names `file`.
    func expectRefused(_ copy: LineModelsCopy, naming file: String, _ loaded: Comment) {
        do {
            _ = try ReaderModels(directory: copy.folder)
            Issue.record(loaded)
        } catch {
            #expect(error.description.contains(file))
        }
    }

    /// The orienter's sideways threshold is read where the file has one, and a file whose value is no
    /// probability is refused with its path.
    @Test func theOrienterSidewaysThresholdIsReadAndChecked() throws {
        let models = try ReaderModels.bundled()
        let sideways = try #require(models.orienter?.sidewaysConfidence)
        #expect((0...1).contains(sideways))
        let copy = try LineModelsCopy("orienter-sideways")
        defer { copy.remove() }
        var bytes = [UInt8](try Data(contentsOf: copy.source.appendingPathComponent(ReaderModels.orienterFile)))
        let key = "\"vitalsnap.orienter.sideways_confidence\":\""
        let at = try #require(LineModelsCopy.offset(of: key, in: bytes))
        bytes[at + key.utf8.count] = UInt8(ascii: "7")  // 0.9 becomes 7.9
        try Data(bytes).write(to: copy.folder.appendingPathComponent(ReaderModels.orienterFile))
        #expect(throws: ReaderModelError.self) { try ReaderModels(directory: copy.folder) }
    }
}
