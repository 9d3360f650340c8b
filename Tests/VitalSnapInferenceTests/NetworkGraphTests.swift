import Foundation
import Testing
@testable import VitalSnapInference

struct NetworkGraphTests {
    /// A graph JSON of `layers` (JSON objects as text).
    private func graph(_ layers: [String], inputChannels: Int = 1, extra: String = "") -> String {
        "{\"format\": 1, \"input_channels\": \(inputChannels), \"layers\": [\(layers.joined(separator: ","))]\(extra)}"
    }

    private func decodeError(_ json: String) -> NetworkGraphError? {
        do {
            _ = try NetworkGraph(json: json)
            return nil
        } catch let error as NetworkGraphError {
            return error
        } catch {
            Issue.record("an error of another type: \(error)")
            return nil
        }
    }

    private let conv = "{\"name\": \"c\", \"op\": \"conv2d\", \"in\": 1, \"out\": 4, \"kernel\": 3}"

    @Test func decodesTheFixtureGraph() throws {
        let file = try SafeTensorsFile(contentsOf: Fixtures.url("tiny-net"))
        let graph = try NetworkGraph(metadata: file.metadata)
        try graph.validateWeights(in: file)
        #expect(graph.inputChannels == 1 && graph.outputChannels == 3)
        #expect(graph.layers.map(\.operation.name) == ["conv2d", "conv2d", "maxpool2d", "conv2d", "conv2d", "conv2d", "relu",
                                                        "upsample", "concat", "conv2d", "add", "maxpool2d", "conv2d"])
        let names = graph.layers.map(\.name)
        let merge = graph.layers[names.firstIndex(of: "merge")!]
        #expect(merge.inputs == [.layer(names.firstIndex(of: "up")!), .layer(names.firstIndex(of: "halfrows")!)])
        #expect(merge.outputChannels == 24)
        guard case .conv2d(let depthwise) = graph.layers[names.firstIndex(of: "depthwise")!].operation else {
            Issue.record("depthwise is not a conv2d")
            return
        }
        #expect(depthwise.isDepthwise && depthwise.dilation == Pair2D(2) && depthwise.padding == Pair2D(2) && depthwise.relu)
        #expect(graph.layers[0].inputs == [.image])
    }

    @Test func defaultsFollowPyTorch() throws {
        let graph = try NetworkGraph(json: self.graph([
            conv, "{\"name\": \"p\", \"op\": \"maxpool2d\", \"kernel\": [2, 3]}",
            "{\"name\": \"u\", \"op\": \"upsample\", \"factor\": 2}",
        ]))
        #expect(graph.layers[0].operation == .conv2d(Convolution2D(inChannels: 1, outChannels: 4, kernel: Pair2D(3))))
        #expect(graph.layers[1].operation == .maxPool2d(kernel: Pair2D(y: 2, x: 3), stride: Pair2D(y: 2, x: 3)))
        #expect(graph.layers[1].inputs == [.layer(0)] && graph.layers[2].inputs == [.layer(1)])
        #expect(graph.layers[2].operation == .upsample(factor: Pair2D(2)))
        #expect(graph.outputLayer == 2)
        let withOutput = try NetworkGraph(json: self.graph([conv, "{\"name\": \"r\", \"op\": \"relu\"}"], extra: ", \"output\": \"c\""))
        #expect(withOutput.outputLayer == 0 && withOutput.outputChannels == 4)
    }

    @Test func wrongDocumentsAndFormatsAreRefused() {
        if case .notJSON = decodeError("{") {} else { Issue.record("broken JSON") }
        #expect(decodeError("[]") == .notJSON("not an object"))
        #expect(decodeError("{\"input_channels\": 1, \"layers\": []}") == .unsupportedFormat("missing"))
        #expect(decodeError(graph([conv]).replacingOccurrences(of: "\"format\": 1", with: "\"format\": 2")) == .unsupportedFormat("2"))
        #expect(decodeError(graph([conv], inputChannels: 0)) == .malformedGraph("'input_channels' must be a positive integer"))
        #expect(decodeError(graph([])) == .malformedGraph("'layers' must be a non-empty array"))
        #expect(decodeError(graph([conv], extra: ", \"outputs\": \"c\"")) == .malformedGraph("unknown key 'outputs'"))
        #expect(decodeError(graph([conv], extra: ", \"output\": \"nope\"")) == .malformedGraph("'output' must name a layer, not nope"))
        #expect(throws: NetworkGraphError.missingGraph) { try NetworkGraph(metadata: ["other": "{}"]) }
    }

    @Test func badLayersAreRefusedWithTheLayerNamed() {
        #expect(decodeError(graph(["{\"name\": \"x\", \"op\": \"conv3d\"}"])) == .unknownOperation(layer: "x", op: "conv3d"))
        #expect(decodeError(graph(["{\"name\": \"x\", \"op\": \"relu\", \"batchnorm\": true}"])) == .unknownAttribute(layer: "x", key: "batchnorm"))
        #expect(decodeError(graph(["{\"name\": \"x\", \"op\": \"conv2d\", \"in\": 1, \"out\": 2, \"kernel\": 3, \"dilations\": 2}"]))
                == .unknownAttribute(layer: "x", key: "dilations"))
        #expect(decodeError(graph(["{\"op\": \"relu\"}"])) == .badName(layer: "#0", reason: "'name' is missing or not a string"))
        for name in ["", "a.b", "input"] {
            guard case .badName = decodeError(graph(["{\"name\": \"\(name)\", \"op\": \"relu\"}"])) else {
                Issue.record("name '\(name)' accepted")
                continue
            }
        }
        #expect(decodeError(graph([conv, conv])) == .badName(layer: "c", reason: "the name is used twice"))
        #expect(decodeError(graph(["{\"name\": \"x\", \"op\": \"conv2d\", \"in\": 1, \"out\": 2}"]))
                == .badAttribute(layer: "x", reason: "'kernel' is missing"))
        for (key, value) in [("kernel", "0"), ("kernel", "[3]"), ("stride", "[1, 0]"), ("padding", "-1"), ("dilation", "\"2\""),
                             ("out", "0"), ("groups", "0"), ("activation", "\"gelu\"")] {
            var fields = ["\"in\": 1", "\"out\": 2", "\"kernel\": 3"].filter { !$0.hasPrefix("\"\(key)\"") }
            fields.append("\"\(key)\": \(value)")
            let layer = "{\"name\": \"x\", \"op\": \"conv2d\", \(fields.joined(separator: ", "))}"
            guard case .badAttribute(layer: "x", _) = decodeError(graph([layer])) else {
                Issue.record("\(key): \(value) accepted")
                continue
            }
        }
        // Grouped convolutions other than depthwise.
        let grouped = "{\"name\": \"g\", \"op\": \"conv2d\", \"in\": 4, \"out\": 8, \"kernel\": 3, \"groups\": 4}"
        guard case .badAttribute(layer: "g", _) = decodeError(graph([conv, grouped])) else {
            Issue.record("groups 4 with out 8 accepted")
            return
        }
    }

    @Test func inputsMustBeTheImageOrEarlierLayers() {
        let later = "{\"name\": \"a\", \"op\": \"relu\", \"inputs\": [\"b\"]}"
        #expect(decodeError(graph([later, "{\"name\": \"b\", \"op\": \"relu\"}"]))
                == .badInput(layer: "a", reason: "input 'b' is neither 'input' nor an earlier layer"))
        #expect(decodeError(graph(["{\"name\": \"a\", \"op\": \"relu\", \"inputs\": [\"a\"]}"]))
                == .badInput(layer: "a", reason: "input 'a' is neither 'input' nor an earlier layer"))
        #expect(decodeError(graph(["{\"name\": \"a\", \"op\": \"add\", \"inputs\": [\"input\"]}"]))
                == .badInput(layer: "a", reason: "add takes 2 input(s), not 1"))
        #expect(decodeError(graph(["{\"name\": \"a\", \"op\": \"relu\", \"inputs\": [\"input\", \"input\"]}"]))
                == .badInput(layer: "a", reason: "relu takes 1 input(s), not 2"))
        #expect(decodeError(graph(["{\"name\": \"a\", \"op\": \"concat\", \"inputs\": []}"]))
                == .badInput(layer: "a", reason: "concat takes at least one input"))
        #expect(decodeError(graph(["{\"name\": \"a\", \"op\": \"relu\", \"inputs\": \"input\"}"]))
                == .badInput(layer: "a", reason: "'inputs' is not an array"))
    }

    @Test func channelCountsMustAgree() {
        #expect(decodeError(graph([conv], inputChannels: 3)) == .channelMismatch(layer: "c", expected: 1, found: 3))
        let add = "{\"name\": \"s\", \"op\": \"add\", \"inputs\": [\"c\", \"input\"]}"
        #expect(decodeError(graph([conv, add])) == .channelMismatch(layer: "s", expected: 4, found: 1))
        let cat = "{\"name\": \"k\", \"op\": \"concat\", \"inputs\": [\"c\", \"input\", \"c\"]}"
        let after = "{\"name\": \"d\", \"op\": \"conv2d\", \"in\": 8, \"out\": 2, \"kernel\": 1}"
        #expect(decodeError(graph([conv, cat, after])) == .channelMismatch(layer: "d", expected: 8, found: 9))
    }

    @Test func weightsMustBePresentWithTheLayersShapes() throws {
        let json = graph([conv, "{\"name\": \"dw\", \"op\": \"conv2d\", \"in\": 4, \"out\": 4, \"kernel\": [3, 1], \"groups\": 4}"])
        let graph = try NetworkGraph(json: json)
        func file(_ tensors: [(String, [Int])]) throws -> SafeTensorsFile {
            var builder = SafeTensorsBuilder()
            builder.metadata = [NetworkGraph.metadataKey: json]
            for (name, shape) in tensors {
                builder.addF32(name, shape: shape, values: [Float](repeating: 0.5, count: shape.reduce(1, *)))
            }
            return try SafeTensorsFile(bytes: builder.data())
        }
        let complete: [(String, [Int])] = [("c.weight", [4, 1, 3, 3]), ("c.bias", [4]), ("dw.weight", [4, 1, 3, 1]), ("dw.bias", [4])]
        try graph.validateWeights(in: file(complete))
        _ = try Network(file: file(complete))
        #expect(throws: NetworkGraphError.missingWeight("dw.bias")) { try graph.validateWeights(in: file(Array(complete.dropLast()))) }
        #expect(throws: NetworkGraphError.missingWeight("dw.bias")) { try Network(file: file(Array(complete.dropLast()))) }
        var wrong = complete
        wrong[2].1 = [4, 4, 3, 1]
        #expect(throws: NetworkGraphError.weightShapeMismatch(tensor: "dw.weight", expected: [4, 1, 3, 1], found: [4, 4, 3, 1])) {
            try graph.validateWeights(in: file(wrong))
        }
        wrong = complete
        wrong[1].1 = [5]
        #expect(throws: NetworkGraphError.weightShapeMismatch(tensor: "c.bias", expected: [4], found: [5])) {
            try Network(file: file(wrong))
        }
    }

    @Test func layerSizesFollowPyTorchAndRefuseWhatCannotJoin() throws {
        let graph = try NetworkGraph(metadata: SafeTensorsFile(contentsOf: Fixtures.url("tiny-net")).metadata)
        let names = graph.layers.map(\.name)
        let sizes = try graph.layerSizes(height: 13, width: 22)
        // PyTorch's sizes, from the io fixture's output shape and the architecture written in the Python script.
        #expect(sizes.last == Pair2D(y: 5, x: 11))
        #expect(sizes[names.firstIndex(of: "halfrows")!] == Pair2D(y: 6, x: 22))
        #expect(sizes[names.firstIndex(of: "down")!] == Pair2D(y: 3, x: 11))
        #expect(throws: NetworkError.inputTooSmall(layer: "halfrows", inputHeight: 1, inputWidth: 9)) {
            try graph.layerSizes(height: 1, width: 9)
        }
        #expect(throws: NetworkError.sizeMismatch(layer: "merge", sizes: [Pair2D(y: 6, x: 22), Pair2D(y: 6, x: 21)])) {
            try graph.layerSizes(height: 13, width: 21)
        }
    }

    @Test func errorsSayWhatIsWrong() {
        let text = NetworkGraphError.weightShapeMismatch(tensor: "c.weight", expected: [4, 1, 3, 3], found: [4, 2, 3, 3]).description
        #expect(text.contains("c.weight") && text.contains("[4, 1, 3, 3]") && text.contains("[4, 2, 3, 3]"))
        #expect(NetworkGraphError.unknownOperation(layer: "x", op: "conv3d").description.contains("conv3d"))
    }
}
