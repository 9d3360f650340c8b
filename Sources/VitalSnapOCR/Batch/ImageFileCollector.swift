import Foundation

/// Expands the paths given on a command line into the image files to read, in a stable order: files as given,
/// folders recursively with their entries sorted by name. Only JPEG and PNG files are taken from folders; a
/// file named explicitly is always attempted, so a mislabelled file still gets a clear error.
public enum ImageFileCollector {
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png"]

    public struct Entry: Sendable, Hashable {
        public var path: String
        /// Set when the entry could not be listed (a folder without permission): reported, not fatal.
        public var error: String?
    }

    public static func collect(_ paths: [String]) -> [Entry] {
        var out: [Entry] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                out.append(Entry(path: path, error: "no such file or folder"))
                continue
            }
            if isDirectory.boolValue {
                walk(path, into: &out)
            } else {
                out.append(Entry(path: path, error: nil))
            }
        }
        return out
    }

    private static func walk(_ folder: String, into out: inout [Entry]) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder) else {
            out.append(Entry(path: folder, error: "cannot list folder (permission denied?)"))
            return
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                walk(path, into: &out)
            } else if imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                out.append(Entry(path: path, error: nil))
            }
        }
    }
}
