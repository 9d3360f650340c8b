import Foundation
import Testing
@testable import VitalSnapInference

struct NetworkTests {
    private struct Case {
        var input: FeatureMap
        var expected: FeatureMap
    }

    /// The io fixture's inputs and PyTorch's outputs (HWC tensors [H, W, C]).
    private func cases() throws -> [Case] {
        let file = try SafeTensorsFile(contentsOf: Fixtures.url("tiny-net-io"))
        let count = try #require(Int(file.metadata["vitalsnap.cases"] ?? ""))
        return try (0..<count).map { i in
            func map(_ name: String) throws -> FeatureMap {
                let tensor = try file.tensor(name)
                try #require(tensor.shape.count == 3)
                return FeatureMap(height: tensor.shape[0], width: tensor.shape[1], channels: tensor.shape[2], values: tensor.values)
            }
            return Case(input: try map("input.\(i)"), expected: try map("output.\(i)"))
        }
    }

    private func maxDifference(_ a: FeatureMap, _ b: FeatureMap) -> Float {
        guard a.height == b.height, a.width == b.width, a.channels == b.channels else { return .infinity }
        return zip(a.values, b.values).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    @Test func tinyNetMatchesPyTorch() throws {
        var network = try Network(contentsOf: Fixtures.url("tiny-net"))
        let cases = try cases()
        #expect(cases.count == 2 && cases[0].input.height != cases[1].input.height)
        for c in cases {
            try network.run(c.input)
            #expect(maxDifference(network.output, c.expected) < 1e-4, "\(c.input.height)x\(c.input.width)")
            #expect(c.expected.values.contains { $0 != 0 })
        }
    }

    @Test func tinyNetFromThePathOrTheBytesIsTheSame() throws {
        let url = Fixtures.url("tiny-net")
        var fromPath = try Network(path: url.path)
        var fromBytes = try Network(file: SafeTensorsFile(bytes: Fixtures.bytes("tiny-net")))
        let input = try cases()[0].input
        try fromPath.run(input)
        try fromBytes.run(input)
        #expect(fromPath.output == fromBytes.output)
    }

    @Test func aReusedWorkspaceGivesIdenticalResultsWithoutGrowing() throws {
        var network = try Network(contentsOf: Fixtures.url("tiny-net"))
        let cases = try cases()
        let small = cases[0].input, large = cases[1].input
        #expect(network.workspaceCapacity == 0)
        try network.run(large)
        let first = network.output
        let capacity = network.workspaceCapacity
        #expect(capacity > 0)
        try network.run(small)
        #expect(network.workspaceCapacity == capacity)
        try network.run(large)
        #expect(network.workspaceCapacity == capacity)
        network.withOutput { #expect($0 == first) }
        // A larger input grows the workspace, and gives what a fresh network gives.
        var random = SeededRandom(seed: 31)
        let larger = random.map(height: large.height * 2, width: large.width * 2, channels: 1)
        try network.run(larger)
        #expect(network.workspaceCapacity > capacity)
        var fresh = try Network(contentsOf: Fixtures.url("tiny-net"))
        try fresh.run(larger)
        #expect(fresh.output == network.output)
    }

    @Test func layersShareBuffersOnceTheirOutputsAreDead() throws {
        let compiled = try CompiledNetwork(file: SafeTensorsFile(contentsOf: Fixtures.url("tiny-net")))
        let layers = compiled.graph.layers
        #expect(compiled.bufferCount < layers.count)
        // No layer writes into the buffer of an output that is still to be read: from layer j to its last reader,
        // every layer has a buffer other than j's.
        for j in layers.indices {
            guard let lastReader = layers.indices.last(where: { layers[$0].inputs.contains(.layer(j)) }) else { continue }
            for k in (j + 1)...lastReader {
                #expect(compiled.bufferOf[k] != compiled.bufferOf[j], "layer \(k) overwrites layer \(j) before \(lastReader) reads it")
            }
        }
        #expect(compiled.bufferOf.allSatisfy { (0..<compiled.bufferCount).contains($0) })
    }

    @Test func copiesShareWeightsButNotWorkspaces() throws {
        let network = try Network(contentsOf: Fixtures.url("tiny-net"))
        let cases = try cases()
        var a = network, b = network
        try a.run(cases[0].input)
        try b.run(cases[1].input)
        var c = a  // a copy taken after a run keeps the run's output
        try c.run(cases[1].input)
        #expect(maxDifference(a.output, cases[0].expected) < 1e-4)
        #expect(maxDifference(b.output, cases[1].expected) < 1e-4)
        #expect(c.output == b.output)
        // One copy per thread.
        let results = ResultBox(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            var copy = network
            let c = cases[k % 2]
            try? copy.run(c.input)
            try? copy.run(c.input)
            results.set(k, copy.output)
        }
        for k in 0..<4 { #expect(results.get(k) == (k % 2 == 0 ? a.output : b.output)) }
    }

    @Test func inputsTheNetworkCannotTakeAreRefusedBeforeRunning() throws {
        var network = try Network(contentsOf: Fixtures.url("tiny-net"))
        #expect(throws: NetworkError.inputChannels(expected: 1, found: 3)) {
            try network.run(FeatureMap(height: 16, width: 16, channels: 3))
        }
        #expect(throws: NetworkError.inputTooSmall(layer: "halfrows", inputHeight: 1, inputWidth: 1)) {
            try network.run(FeatureMap(height: 1, width: 1, channels: 1))
        }
        #expect(throws: NetworkError.sizeMismatch(layer: "merge", sizes: [Pair2D(y: 6, x: 22), Pair2D(y: 6, x: 21)])) {
            try network.run(FeatureMap(height: 13, width: 21, channels: 1))
        }
        #expect(network.output.values.isEmpty)
        // A refused input leaves the network usable.
        let c = try cases()[0]
        try network.run(c.input)
        #expect(maxDifference(network.output, c.expected) < 1e-4)
    }

    @Test func filesThatAreNoNetworkAreRefused() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-network-\(UUID()).safetensors")
        do {
            _ = try Network(contentsOf: missing)
            Issue.record("a missing file was read")
        } catch let error as SafeTensorsError {
            guard case .unreadable(let path, _) = error else { throw error }
            #expect(path == missing.path)
        }
        // Weights without a graph.
        var builder = SafeTensorsBuilder()
        builder.addF32("c.weight", shape: [1, 1, 1, 1], values: [1])
        #expect(throws: NetworkGraphError.missingGraph) { try Network(file: SafeTensorsFile(bytes: builder.data())) }
    }

    @Test func theOutputCanBeAMiddleLayerAndLaterLayersAreSkipped() throws {
        // conv -> relu -> conv with "output": "r": the relu's output is returned, not the last layer's.
        var random = SeededRandom(seed: 32)
        let json = """
        {"format": 1, "input_channels": 3, "output": "r", "layers": [
         {"name": "a", "op": "conv2d", "in": 3, "out": 5, "kernel": [3, 3], "padding": [1, 1]},
         {"name": "r", "op": "relu"},
         {"name": "b", "op": "conv2d", "in": 5, "out": 2, "kernel": [1, 1]}]}
        """
        var builder = SafeTensorsBuilder()
        builder.metadata = [NetworkGraph.metadataKey: json]
        let weight = random.floats(5 * 3 * 9), bias = random.floats(5)
        builder.addF32("a.weight", shape: [5, 3, 3, 3], values: weight)
        builder.addF32("a.bias", shape: [5], values: bias)
        builder.addF32("b.weight", shape: [2, 5, 1, 1], values: random.floats(10))
        builder.addF32("b.bias", shape: [2], values: random.floats(2))
        var network = try Network(file: SafeTensorsFile(bytes: builder.data()))
        let input = random.map(height: 7, width: 9, channels: 3)
        try network.run(input)
        var expected = FeatureMap()
        Conv2DReference.run(input, weight: weight, bias: bias, outChannels: 5,
                            window: ConvWindow(kernelY: 3, kernelX: 3, padY: 1, padX: 1), relu: true, into: &expected)
        #expect(relativeDifference(network.output, expected) < 1e-4)
        #expect(network.graph.outputChannels == 5)
    }
}

/// Results written from several threads, each to its own slot.
private final class ResultBox: @unchecked Sendable {
    private var values: [FeatureMap]
    private let lock = NSLock()

    init(count: Int) { values = [FeatureMap](repeating: FeatureMap(), count: count) }

    func set(_ i: Int, _ value: FeatureMap) { lock.withLock { values[i] = value } }
    func get(_ i: Int) -> FeatureMap { lock.withLock { values[i] } }
}
