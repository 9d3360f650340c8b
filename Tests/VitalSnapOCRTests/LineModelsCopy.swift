import Foundation
import VitalSnapModels
@testable import VitalSnapOCR

/// A temporary models folder holding copies of the bundled line detector and recognizer (no orienter), for
/// tests that load a folder with one file added, missing or altered. Removed by `remove()`.
struct LineModelsCopy {
    let folder: URL
    let source: URL

    init(_ name: String) throws {
        guard let source = ModelFiles.directory else { throw CocoaError(.fileNoSuchFile) }
        self.source = source
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in [ReaderModels.detectorFile, ReaderModels.recognizerFile] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Rewrites the copied recognizer's safetensors metadata (`__metadata__` of its JSON header), the tensors
    /// left as they are: the header is 8 bytes of little-endian length, then the JSON, then the data.
    func changeRecognizerMetadata(_ change: (inout [String: String]) -> Void) throws {
        try changeMetadata(of: ReaderModels.recognizerFile, change)
    }

    /// The metadata of the copied model file `name` changed by `change`, its tensors kept.
    func changeMetadata(of name: String, _ change: (inout [String: String]) -> Void) throws {
        let url = folder.appendingPathComponent(name)
        let bytes = [UInt8](try Data(contentsOf: url))
        let length = bytes[0..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        var header = try JSONSerialization.jsonObject(with: Data(bytes[8..<(8 + length)])) as? [String: Any] ?? [:]
        var metadata = header["__metadata__"] as? [String: String] ?? [:]
        change(&metadata)
        header["__metadata__"] = metadata
        let json = [UInt8](try JSONSerialization.data(withJSONObject: header))
        let size = (0..<8).map { UInt8(truncatingIfNeeded: json.count >> (8 * $0)) }
        try Data(size + json + bytes[(8 + length)...]).write(to: url)
    }

    /// The index of the first occurrence of `text` in `bytes`.
    static func offset(of text: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(text.utf8)
        return bytes.indices.first { i in i + pattern.count <= bytes.count && Array(bytes[i..<(i + pattern.count)]) == pattern }
    }
}
