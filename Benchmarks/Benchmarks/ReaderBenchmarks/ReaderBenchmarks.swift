// Benchmarks of the per-photo and per-frame work: JPEG decoding at each DCT scale, the pixel stages on their own,
// the text line reader and the whole live per-frame step on frames of three sizes (one reader kept across
// iterations, as a live camera stream keeps it), the whole `DisplayReader` on one still, and batch throughput on a
// folder of stills; for the trained reader, each model on its own (the detector and the orienter per photo,
// the recognizer per line), the reader per photo and per live frame at 1280x720, and batch throughput.
// Run from the Benchmarks folder: `swift package benchmark --no-progress`.

import Benchmark
import Foundation
import VitalSnapImaging
import VitalSnapOCR

/// The repository root, found from this file's place in it (Benchmarks/Benchmarks/ReaderBenchmarks/), so the
/// samples are found whatever the working directory.
private let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url
}()

/// A 640x480 generated still of the G1 glucose meter; peripheral 9 reads it as 227 mg/dL (its label), with no
/// glare, and as 227 has a 7 the photo is not read a second time upside down.
private let stillPath = repositoryRoot.appendingPathComponent("Samples/stills/glucose-g1/glucose-g1-01.jpg").path

private func stillBytes() -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: stillPath) else {
        fatalError("cannot read \(stillPath)")
    }
    return [UInt8](data)
}

private func decodedStill() throws -> GrayImage {
    let decoded = try ImageDecoder.decode(bytes: stillBytes())
    guard decoded.image.width == 640, decoded.image.height == 480 else {
        fatalError("\(stillPath) is \(decoded.image.width)x\(decoded.image.height), expected 640x480")
    }
    return decoded.image
}

private func glucosePeripheral() throws -> PeripheralDefinition {
    // The tool's own resource bundle; failing that, the definitions in the repository.
    let catalog: PeripheralCatalog
    if let builtIn = try? PeripheralCatalog.builtIn() {
        catalog = builtIn
    } else {
        catalog = try PeripheralCatalog.load(from: repositoryRoot.appendingPathComponent("Overlays/peripherals"))
    }
    guard let peripheral = catalog[9] else { fatalError("peripheral 9 is not in the catalog") }
    return peripheral
}

/// Mutable state kept across iterations (a reader keeps its buffers between frames). The benchmark runs its
/// iterations on one thread.
private final class FrameReaderState: @unchecked Sendable {
    var reader: DisplayReader
    let image: GrayImage
    init(image: GrayImage) throws {
        // The frame read as a whole frame, not as a crop of a display (no row-profile lines).
        var configuration = DisplayReader.Configuration()
        configuration.frame.displayCropLongSide = 0
        reader = DisplayReader(peripheral: try glucosePeripheral(), reader: .rules, configuration: configuration)
        self.image = image
    }
}

private final class DisplayReaderState: @unchecked Sendable {
    var reader: DisplayReader
    let image: GrayImage
    init(reader: DisplayReader, image: GrayImage) {
        self.reader = reader
        self.image = image
    }
}

private final class StageState: @unchecked Sendable {
    let image: GrayImage
    var integral = IntegralImage()
    var dark = InkMask(width: 0, height: 0)
    var light = InkMask(width: 0, height: 0)
    var scratch = InkMask(width: 0, height: 0)
    var grayOut = GrayImage(width: 0, height: 0)
    var grayScratch = GrayImage(width: 0, height: 0)
    var labeler = ConnectedComponents()
    init(image: GrayImage) {
        self.image = image
        integral.update(from: image)
        AdaptiveThreshold(radius: 14, k: 0.25, minimumContrast: 10).apply(image, integral: integral, dark: &dark, light: &light)
    }
}

private final class LiveState: @unchecked Sendable {
    var live: LiveReader
    let image: GrayImage
    var timestamp = 0.0
    init(live: LiveReader, image: GrayImage) {
        self.live = live
        self.image = image
    }
}

/// One model stage and its input, kept across iterations.
private final class ModelStageState: @unchecked Sendable {
    var locator: ModelLineLocator
    var recognizer: ModelCharacterRecognizer
    let frame: WorkingFrame
    let line: RectifiedLine
    init(models: ReaderModels, image: GrayImage) throws {
        locator = ModelLineLocator(network: models.detector, longSide: models.detectorLongSide)
        recognizer = ModelCharacterRecognizer(network: models.recognizer, info: models.recognizerInfo)
        var frame = WorkingFrame()
        frame.update(from: image)
        self.frame = frame
        // The still's value line (227), as the rectifier cuts it.
        guard let value = try locator.locate(in: frame).first(where: { $0.role == .value }) else {
            fatalError("the detector finds no value line in \(stillPath)")
        }
        var rectifier = ModelLineRectifier()
        var line = RectifiedLine()
        rectifier.rectify(value, pyramid: frame.pyramid, into: &line)
        self.line = line
        let text = String(try recognizer.recognize(line).characters.map(\.character))
        guard text == "227" else { fatalError("the recognizer reads \(text) in \(stillPath), expected 227") }
    }
}

private final class OrienterState: @unchecked Sendable {
    var orienter: ModelPhotoOrienter
    let image: GrayImage
    init(models: ReaderModels, image: GrayImage) throws {
        guard let o = models.orienter else { fatalError("the bundled models have no orienter") }
        orienter = ModelPhotoOrienter(o)
        self.image = image
    }
}

private func sizedStill(_ width: Int, _ height: Int) throws -> GrayImage {
    let still = try decodedStill()
    return (width, height) == (640, 480) ? still : still.resized(width: width, height: height)
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    Benchmark.defaultConfiguration = .init(
        metrics: metrics,
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(3),
        maxIterations: 10_000
    )

    // 1. JPEG decode of the 640x480 still to grey, at DCT scale 1, 2, 4 and 8. The file's bytes are read once.
    //    minimumLongSide picks the largest reduction whose long side is still at least that long.
    let scales: [(denominator: Int, minimumLongSide: Int?)] = [(1, nil), (2, 320), (4, 160), (8, 80)]
    for (denominator, minimumLongSide) in scales {
        let options = DecodeOptions(minimumLongSide: minimumLongSide)
        Benchmark("JPEG decode 640x480 scale 1/\(denominator)") { (benchmark: Benchmark, bytes: [UInt8]) in
            for _ in benchmark.scaledIterations {
                blackHole(try? ImageDecoder.decode(bytes: bytes, options: options))
            }
        } setup: {
            let bytes = stillBytes()
            let decoded = try ImageDecoder.decode(bytes: bytes, options: options)
            guard decoded.scaleDenominator == denominator else {
                fatalError("expected DCT scale 1/\(denominator), the decoder used 1/\(decoded.scaleDenominator)")
            }
            return bytes
        }
    }

    // 2. The reader's lines alone (pyramid, candidates, lines, rectification, recognition, the best kept) on the
    //    still and on the still stretched to 1280x720 and 1920x1080. One reader across iterations, as for a
    //    live stream.
    for (width, height) in [(640, 480), (1280, 720), (1920, 1080)] {
        Benchmark("Reader lines \(width)x\(height)") { (benchmark: Benchmark, state: FrameReaderState) in
            for _ in benchmark.scaledIterations {
                blackHole(try state.reader.readLines(state.image))
            }
        } setup: {
            let still = try decodedStill()
            let image = (width, height) == (640, 480) ? still : still.resized(width: width, height: height)
            return try FrameReaderState(image: image)
        }
    }

    // 3. The whole still-photo reading without the decode: lines, assembly, plausibility, glare.
    Benchmark("DisplayReader peripheral 9 640x480") { (benchmark: Benchmark, state: DisplayReaderState) in
        for _ in benchmark.scaledIterations {
            blackHole(try state.reader.read(image: state.image))
        }
    } setup: {
        var reader = DisplayReader(peripheral: try glucosePeripheral(), reader: .rules)
        let image = try decodedStill()
        let result = try reader.read(image: image)
        guard result.reading?.readingString == "227" else {
            fatalError("DisplayReader read \(result.reading?.readingString ?? "nothing") (\(result.message ?? "")), expected 227")
        }
        return DisplayReaderState(reader: reader, image: image)
    }

    // 4. The pixel stages on their own, on the still at each size: summed-area tables and the two-polarity
    //    adaptive threshold (the candidate finder's radius 14), long-run removal, connected components, and the
    //    grey closing the ink separator uses (radius 3).
    for (width, height) in [(640, 480), (1280, 720), (1920, 1080)] {
        Benchmark("Stage threshold \(width)x\(height)") { (benchmark: Benchmark, state: StageState) in
            let threshold = AdaptiveThreshold(radius: 14, k: 0.25, minimumContrast: 10)
            for _ in benchmark.scaledIterations {
                state.integral.update(from: state.image)
                threshold.apply(state.image, integral: state.integral, dark: &state.dark, light: &state.light)
            }
        } setup: { StageState(image: try sizedStill(width, height)) }

        Benchmark("Stage long-run removal \(width)x\(height)") { (benchmark: Benchmark, state: StageState) in
            let removal = LongRunRemoval(maximumHorizontal: 120, maximumVertical: 150)
            for _ in benchmark.scaledIterations {
                var mask = state.dark
                removal.apply(&mask, scratch: &state.scratch)
                blackHole(mask)
            }
        } setup: { StageState(image: try sizedStill(width, height)) }

        Benchmark("Stage components \(width)x\(height)") { (benchmark: Benchmark, state: StageState) in
            for _ in benchmark.scaledIterations {
                blackHole(state.labeler.label(state.dark, minimumArea: 4))
            }
        } setup: { StageState(image: try sizedStill(width, height)) }

        Benchmark("Stage grey closing r3 \(width)x\(height)") { (benchmark: Benchmark, state: StageState) in
            for _ in benchmark.scaledIterations {
                GrayMorphology.closing(state.image, radius: 3, into: &state.grayOut, scratch: &state.grayScratch)
            }
        } setup: { StageState(image: try sizedStill(width, height)) }

        // 5. The whole live per-frame step: reading the frame (lines, assembly, glare) and the convergence update.
        Benchmark("Live frame \(width)x\(height)") { (benchmark: Benchmark, state: LiveState) in
            for _ in benchmark.scaledIterations {
                state.timestamp += 0.1
                blackHole(try state.live.process(state.image, timestamp: state.timestamp))
            }
        } setup: {
            LiveState(live: LiveReader(peripheral: try glucosePeripheral(), unit: nil, reader: .rules), image: try sizedStill(width, height))
        }
    }

    // 6. Batch throughput: the 18 stills of one sample design (640x480 JPEGs) read from disk by BatchRunner on
    //    one thread, decode included. One iteration reads the whole folder.
    Benchmark("Batch 18 stills, 1 job", configuration: .init(maxDuration: .seconds(5), maxIterations: 50)) {
        (benchmark: Benchmark, entries: [ImageFileCollector.Entry]) in
        let runner = BatchRunner(peripheral: try glucosePeripheral(), unit: nil, jobs: 1, reader: .rules)
        for _ in benchmark.scaledIterations {
            runner.run(entries) { _, result in blackHole(result) }
        }
    } setup: {
        ImageFileCollector.collect([repositoryRoot.appendingPathComponent("Samples/stills/glucose-g1").path])
    }

    // 7. The trained reader (Models/reader): the detector on the 640x480 still (resize to 256x192 included, the
    //    pyramid built once in setup), the orienter on the still (its resize to 128x96 included), the
    //    recognizer on the still's value line, the whole DisplayReader, the live
    //    per-frame step at 1280x720 and batch throughput on the same 18 stills.
    Benchmark("Model detector per photo 640x480") { (benchmark: Benchmark, state: ModelStageState) in
        for _ in benchmark.scaledIterations {
            blackHole(try state.locator.locate(in: state.frame))
        }
    } setup: { try ModelStageState(models: try ReaderModels.bundled(), image: try decodedStill()) }

    Benchmark("Model orienter per photo 640x480") { (benchmark: Benchmark, state: OrienterState) in
        for _ in benchmark.scaledIterations {
            blackHole(try state.orienter.estimate(state.image, lines: []))
        }
    } setup: { try OrienterState(models: try ReaderModels.bundled(), image: try decodedStill()) }

    Benchmark("Model recognizer per line") { (benchmark: Benchmark, state: ModelStageState) in
        for _ in benchmark.scaledIterations {
            blackHole(try state.recognizer.recognize(state.line))
        }
    } setup: { try ModelStageState(models: try ReaderModels.bundled(), image: try decodedStill()) }

    Benchmark("DisplayReader model peripheral 9 640x480") { (benchmark: Benchmark, state: DisplayReaderState) in
        for _ in benchmark.scaledIterations {
            blackHole(try state.reader.read(image: state.image))
        }
    } setup: {
        // Every stage runs whatever the reading: the committed models refuse this still as unclear (227 read
        // below their confidence threshold), which costs what a reading costs.
        var reader = DisplayReader(peripheral: try glucosePeripheral(), reader: .model(try ReaderModels.bundled()))
        let image = try decodedStill()
        _ = try reader.read(image: image)
        return DisplayReaderState(reader: reader, image: image)
    }

    // A photo that shows no display at all: refused only after every look the reader has (the second detector,
    // the closer look, the tilts and turns, the rule-based reader, the contrast looks), the most a photo costs.
    Benchmark("DisplayReader model refusal, blank 640x480") { (benchmark: Benchmark, state: DisplayReaderState) in
        for _ in benchmark.scaledIterations {
            blackHole(try state.reader.read(image: state.image))
        }
    } setup: {
        var reader = DisplayReader(peripheral: try glucosePeripheral(), reader: .model(try ReaderModels.bundled()))
        let image = GrayImage(width: 640, height: 480, fill: 128)
        _ = try reader.read(image: image)
        return DisplayReaderState(reader: reader, image: image)
    }

    Benchmark("Live frame model 1280x720") { (benchmark: Benchmark, state: LiveState) in
        for _ in benchmark.scaledIterations {
            state.timestamp += 0.1
            blackHole(try state.live.process(state.image, timestamp: state.timestamp))
        }
    } setup: {
        let live = LiveReader(peripheral: try glucosePeripheral(), unit: nil, reader: .model(try ReaderModels.bundled()))
        return LiveState(live: live, image: try sizedStill(1280, 720))
    }

    Benchmark("Batch 18 stills model, 1 job", configuration: .init(maxDuration: .seconds(5), maxIterations: 50)) {
        (benchmark: Benchmark, entries: [ImageFileCollector.Entry]) in
        let runner = BatchRunner(peripheral: try glucosePeripheral(), unit: nil, jobs: 1, reader: .model(try ReaderModels.bundled()))
        for _ in benchmark.scaledIterations {
            runner.run(entries) { _, result in blackHole(result) }
        }
    } setup: {
        ImageFileCollector.collect([repositoryRoot.appendingPathComponent("Samples/stills/glucose-g1").path])
    }
}
