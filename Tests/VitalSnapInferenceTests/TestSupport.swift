import Foundation
@testable import VitalSnapInference

/// A seeded generator (SplitMix64) so that every random test input is the same on every run.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func floats(_ count: Int, in range: ClosedRange<Float> = -1...1) -> [Float] {
        (0..<count).map { _ in Float.random(in: range, using: &self) }
    }

    mutating func map(height: Int, width: Int, channels: Int) -> FeatureMap {
        FeatureMap(height: height, width: width, channels: channels, values: floats(height * width * channels))
    }
}

/// The largest difference between two maps relative to max(1, |expected|); infinity when their shapes differ.
func relativeDifference(_ actual: FeatureMap, _ expected: FeatureMap) -> Float {
    guard actual.height == expected.height, actual.width == expected.width, actual.channels == expected.channels,
          actual.values.count == expected.values.count
    else { return .infinity }
    var worst: Float = 0
    for (a, e) in zip(actual.values, expected.values) {
        let d = abs(a - e) / max(1, abs(e))
        if !(d <= worst) { worst = d.isNaN ? .infinity : d }
    }
    return worst
}

/// Builds safetensors files byte by byte, for tests that need particular (or broken) headers.
struct SafeTensorsBuilder {
    struct Entry {
        var name: String
        var dtype: String
        var shape: [Int]
        var bytes: [UInt8]
    }

    var metadata: [String: String] = [:]
    var entries: [Entry] = []

    mutating func addF32(_ name: String, shape: [Int], values: [Float]) {
        var bytes: [UInt8] = []
        for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        entries.append(Entry(name: name, dtype: "F32", shape: shape, bytes: bytes))
    }

    mutating func addF16(_ name: String, shape: [Int], bits: [UInt16]) {
        var bytes: [UInt8] = []
        for b in bits { withUnsafeBytes(of: b.littleEndian) { bytes.append(contentsOf: $0) } }
        entries.append(Entry(name: name, dtype: "F16", shape: shape, bytes: bytes))
    }

    /// The header JSON the entries and metadata make, tensors laid out one after the other.
    func headerJSON() -> String {
        var parts: [String] = []
        if !metadata.isEmpty {
            let data = try! JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys])
            parts.append("\"__metadata__\":" + String(decoding: data, as: UTF8.self))
        }
        var offset = 0
        for entry in entries {
            let shape = entry.shape.map(String.init).joined(separator: ",")
            parts.append("\"\(entry.name)\":{\"dtype\":\"\(entry.dtype)\",\"shape\":[\(shape)],\"data_offsets\":[\(offset),\(offset + entry.bytes.count)]}")
            offset += entry.bytes.count
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    func data() -> [UInt8] {
        Self.file(header: headerJSON(), data: entries.flatMap(\.bytes))
    }

    /// A file of any header text and data.
    static func file(header: String, data: [UInt8]) -> [UInt8] {
        let headerBytes = Array(header.utf8)
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt64(headerBytes.count).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes + headerBytes + data
    }
}

enum Fixtures {
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: "safetensors", subdirectory: "Fixtures")!
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(name)))
    }
}
