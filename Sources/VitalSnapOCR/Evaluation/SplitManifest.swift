import Foundation

/// Which photos of each labelled folder the models were trained on (`train`) and which were kept back to be
/// reported on only (`held`): `Training/split.tsv`, columns `folder`, `file`, `half`.
public struct SplitManifest: Sendable {
    public enum Half: String, Sendable, CaseIterable {
        case train, held
    }

    /// Folder name -> file -> half.
    private var halves: [String: [String: Half]]

    public init(halves: [String: [String: Half]]) { self.halves = halves }

    public static func load(_ path: String) throws(LabelFileError) -> SplitManifest {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path)
        }
        var halves: [String: [String: Half]] = [:]
        for (n, row) in text.split(whereSeparator: \.isNewline).enumerated() {
            let cells = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if n == 0 {
                guard cells == ["folder", "file", "half"] else { throw .malformed(path, line: 1, "header must be folder, file, half") }
                continue
            }
            guard cells.count == 3, let half = Half(rawValue: cells[2]) else {
                throw .malformed(path, line: n + 1, "expected folder, file and train or held")
            }
            halves[cells[0], default: [:]][cells[1]] = half
        }
        return SplitManifest(halves: halves)
    }

    /// Whether the manifest splits the folder named `folder` (its last path component).
    public func covers(folder: String) -> Bool { halves[(folder as NSString).lastPathComponent] != nil }

    /// The labels of `folder` in `half`; every label when the manifest does not split that folder.
    public func labels(_ labels: LabelFile, in folder: String, half: Half) -> LabelFile {
        guard let files = halves[(folder as NSString).lastPathComponent] else { return labels }
        return LabelFile(labels: labels.labels.filter { files[$0.file] == half })
    }
}
