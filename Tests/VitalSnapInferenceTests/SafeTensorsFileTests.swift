import Foundation
import Testing
@testable import VitalSnapInference

struct SafeTensorsFileTests {
    private func parseError(_ bytes: [UInt8]) -> SafeTensorsError? {
        do {
            _ = try SafeTensorsFile(bytes: bytes)
            return nil
        } catch let error as SafeTensorsError {
            return error
        } catch {
            Issue.record("an error of another type: \(error)")
            return nil
        }
    }

    private func parseError(header: String, dataLength: Int) -> SafeTensorsError? {
        parseError(SafeTensorsBuilder.file(header: header, data: [UInt8](repeating: 0, count: dataLength)))
    }

    @Test func readsF32AndF16TensorsAndTheMetadata() throws {
        var random = SeededRandom(seed: 21)
        var builder = SafeTensorsBuilder()
        builder.metadata = ["vitalsnap.note": "x", "other": "y"]
        let f32 = random.floats(2 * 3 * 4)
        builder.addF32("a.weight", shape: [2, 3, 4], values: f32)
        let f16 = (0..<7).map { _ in UInt16.random(in: 0..<0x7C00, using: &random) }
        builder.addF16("b", shape: [7], bits: f16)
        builder.addF32("scalar", shape: [], values: [2.5])
        builder.addF32("empty", shape: [0, 3], values: [])
        let file = try SafeTensorsFile(bytes: builder.data())
        #expect(file.metadata == builder.metadata)
        #expect(file.tensorNames == ["a.weight", "b", "empty", "scalar"])
        #expect(try file.tensor("a.weight") == Tensor(shape: [2, 3, 4], values: f32))
        #expect(try file.tensor("b").values == f16.map(Float16Bits.float))
        #expect(try file.tensor("scalar") == Tensor(shape: [], values: [2.5]))
        #expect(try file.tensor("empty").values.isEmpty)
        #expect(file.tensors["b"]?.dtype == .f16)
        #expect(throws: SafeTensorsError.missingTensor("c")) { try file.tensor("c") }
    }

    @Test func readsTheFixtureThatPythonWrote() throws {
        let file = try SafeTensorsFile(contentsOf: Fixtures.url("tiny-net"))
        #expect(file.metadata[NetworkGraph.metadataKey] != nil)
        let weight = try file.tensor("tall.weight")
        #expect(weight.shape == [12, 5, 5, 3] && weight.values.count == 900)
        #expect(weight.values.contains { $0 != 0 } && weight.values.allSatisfy(\.isFinite))
    }

    @Test func halfPrecisionConvertsExactlyForEveryBitPattern() {
        #if !((os(macOS) || os(iOS)) && arch(x86_64))
        for bits in 0...UInt16.max {
            let expected = Float(Float16(bitPattern: bits))
            let actual = Float16Bits.float(bits)
            if expected.isNaN {
                #expect(actual.isNaN && actual.sign == expected.sign, "\(bits)")
            } else {
                #expect(actual.bitPattern == expected.bitPattern, "\(bits)")
            }
        }
        #endif
    }

    @Test func tensorsAtUnalignedOffsetsAreRead() throws {
        // Data that starts at every offset modulo 4: headers padded with spaces (as the format allows).
        var builder = SafeTensorsBuilder()
        builder.metadata = ["k": "abc"]
        builder.addF32("t", shape: [3], values: [1, -2, 3.5])
        #expect(try SafeTensorsFile(bytes: builder.data()).tensor("t").values == [1, -2, 3.5])
        for spaces in 1...3 {
            let header = builder.headerJSON() + String(repeating: " ", count: spaces)
            let shifted = SafeTensorsBuilder.file(header: header, data: builder.entries[0].bytes)
            #expect(try SafeTensorsFile(bytes: shifted).tensor("t").values == [1, -2, 3.5])
        }
    }

    @Test func anEmptyOrShortFileIsRefused() {
        #expect(parseError([]) == .tooShort(byteCount: 0))
        #expect(parseError([1, 0, 0]) == .tooShort(byteCount: 3))
    }

    @Test func aHugeDeclaredHeaderIsRefusedWithoutAllocatingIt() {
        for declared: UInt64 in [UInt64.max, 1 << 40, UInt64(SafeTensorsFile.maximumHeaderLength) + 1] {
            var bytes: [UInt8] = []
            withUnsafeBytes(of: declared.littleEndian) { bytes.append(contentsOf: $0) }
            bytes += Array("{}".utf8)
            #expect(parseError(bytes) == .headerTooLarge(declared: declared, limit: SafeTensorsFile.maximumHeaderLength))
        }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt64(SafeTensorsFile.maximumHeaderLength).littleEndian) { bytes.append(contentsOf: $0) }
        bytes += Array("{}".utf8)
        #expect(parseError(bytes) == .truncatedHeader(declared: SafeTensorsFile.maximumHeaderLength, available: 2))
    }

    @Test func everyTruncationIsRefused() throws {
        let bytes = try Fixtures.bytes("tiny-net-io")
        let file = try SafeTensorsFile(bytes: bytes)
        let headerEnd = 8 + Int(bytes[0]) + Int(bytes[1]) << 8
        let dataLength = bytes.count - headerEnd
        #expect(file.tensors.values.map(\.dataOffsets.upperBound).max() == dataLength)
        // Inside the length and the header: too short, truncated header, or (cut at a place where the header
        // still parses) a tensor past the data.
        for n in 0..<headerEnd {
            #expect(parseError(Array(bytes[..<n])) != nil, "cut at \(n)")
        }
        // Inside the data: the last tensors reach past it.
        for n in stride(from: headerEnd, to: bytes.count, by: 97) {
            guard case .offsetsOutsideData = parseError(Array(bytes[..<n])) else {
                Issue.record("cut at \(n) was not refused for its offsets")
                continue
            }
        }
    }

    @Test func randomByteFlipsNeverCrashAndWhatParsesIsReadable() throws {
        var random = SeededRandom(seed: 22)
        for name in ["tiny-net-io", "tiny-net"] {
            let original = try Fixtures.bytes(name)
            let headerEnd = 8 + Int(original[0]) + Int(original[1]) << 8 + Int(original[2]) << 16
            var refused = 0, parsed = 0
            for _ in 0..<400 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    // Mostly in the length and header, where the structure is.
                    let at = Int.random(in: 0..<(Bool.random(using: &random) ? 8 : headerEnd), using: &random)
                    bytes[at] ^= UInt8.random(in: 1...255, using: &random)
                }
                do {
                    let file = try SafeTensorsFile(bytes: bytes)
                    parsed += 1
                    for tensorName in file.tensorNames {
                        let tensor = try file.tensor(tensorName)
                        #expect(tensor.values.count == tensor.shape.reduce(1, *))
                    }
                } catch is SafeTensorsError {
                    refused += 1
                }
            }
            #expect(refused > 100, "\(name): flips that should break the header were accepted")
            #expect(parsed + refused == 400)
        }
    }

    @Test func malformedEntriesAreRefusedWithWhatIsWrong() {
        func entry(_ fields: String) -> String { "{\"t\":{\(fields)}}" }
        #expect(parseError(header: "[1,2]", dataLength: 0) == .headerNotJSON("not an object"))
        if case .headerNotJSON = parseError(header: "{\"t\":", dataLength: 0) {} else { Issue.record("broken JSON") }
        if case .headerNotJSON = parseError(SafeTensorsBuilder.file(header: "{\"\u{FF}\":1}", data: []).map { $0 == 0xC3 ? 0xFF : $0 }) {} else {
            Issue.record("invalid UTF-8")
        }
        #expect(parseError(header: "{\"__metadata__\":[1]}", dataLength: 0) == .malformedMetadata("is not an object"))
        #expect(parseError(header: "{\"__metadata__\":{\"a\":1}}", dataLength: 0) == .malformedMetadata("value of 'a' is not a string"))
        #expect(parseError(header: "{\"t\":3}", dataLength: 0) == .malformedEntry(tensor: "t", reason: "is not an object"))
        #expect(parseError(header: entry("\"shape\":[1],\"data_offsets\":[0,4]"), dataLength: 4)
                == .malformedEntry(tensor: "t", reason: "dtype is missing or not a string"))
        #expect(parseError(header: entry("\"dtype\":\"BF16\",\"shape\":[1],\"data_offsets\":[0,2]"), dataLength: 2)
                == .unsupportedDType(tensor: "t", dtype: "BF16"))
        #expect(parseError(header: entry("\"dtype\":\"I64\",\"shape\":[1],\"data_offsets\":[0,8]"), dataLength: 8)
                == .unsupportedDType(tensor: "t", dtype: "I64"))
        for shape in ["[-1]", "[1.5]", "[\"2\"]", "[1e30]", "3"] {
            guard case .malformedEntry(tensor: "t", _) = parseError(
                header: entry("\"dtype\":\"F32\",\"shape\":\(shape),\"data_offsets\":[0,4]"), dataLength: 4)
            else { Issue.record("shape \(shape) accepted"); continue }
        }
        for offsets in ["[0]", "[0,4,8]", "[-4,0]", "[0,\"4\"]", "null"] {
            #expect(parseError(header: entry("\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":\(offsets)"), dataLength: 8)
                    == .malformedEntry(tensor: "t", reason: "data_offsets is not a pair of non-negative integers"), "\(offsets)")
        }
        #expect(parseError(header: entry("\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,4]"), dataLength: 8)
                == .misorderedOffsets(tensor: "t", begin: 8, end: 4))
        #expect(parseError(header: entry("\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]"), dataLength: 8)
                == .offsetsOutsideData(tensor: "t", end: 12, dataLength: 8))
        #expect(parseError(header: entry("\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]"), dataLength: 8)
                == .sizeMismatch(tensor: "t", shape: [3], dtype: "F32", byteLength: 8))
        #expect(parseError(header: entry("\"dtype\":\"F16\",\"shape\":[3],\"data_offsets\":[0,8]"), dataLength: 8)
                == .sizeMismatch(tensor: "t", shape: [3], dtype: "F16", byteLength: 8))
        // An element count that overflows is a size mismatch, not a crash.
        let huge = "[4611686018427387904,4611686018427387904,8]"
        #expect(parseError(header: entry("\"dtype\":\"F32\",\"shape\":\(huge),\"data_offsets\":[0,8]"), dataLength: 8)
                == .sizeMismatch(tensor: "t", shape: [4611686018427387904, 4611686018427387904, 8], dtype: "F32", byteLength: 8))
    }

    @Test func overlappingTensorsAreRefused() {
        let a = "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}"
        let b = "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}"
        #expect(parseError(header: "{\(a),\(b)}", dataLength: 12) == .overlappingTensors("a", "b"))
        let same = "\"c\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}"
        #expect(parseError(header: "{\(same),\(a)}", dataLength: 12) == .overlappingTensors("a", "c"))
        // Adjacent, in either order in the header, and gaps are fine.
        let c = "\"c\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[12,16]}"
        let d = "\"d\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,12]}"
        #expect(parseError(header: "{\(c),\(a),\(d)}", dataLength: 20) == nil)
    }

    @Test func errorsSayWhatIsWrong() {
        let error = SafeTensorsError.sizeMismatch(tensor: "conv.weight", shape: [3], dtype: "F32", byteLength: 8)
        #expect(error.description.contains("conv.weight") && error.description.contains("[3]"))
        #expect(SafeTensorsError.unsupportedDType(tensor: "t", dtype: "BF16").description.contains("BF16"))
    }
}
