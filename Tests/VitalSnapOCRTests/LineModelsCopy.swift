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

    /// The index of the first occurrence of `text` in `bytes`.
    static func offset(of text: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(text.utf8)
        return bytes.indices.first { i in i + pattern.count <= bytes.count && Array(bytes[i..<(i + pattern.count)]) == pattern }
    }
}
