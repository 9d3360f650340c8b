import Foundation
import VitalSnapImaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Expands the paths given on a command line into the image files to read, in a stable order: files as given,
/// folders recursively with their entries sorted by name. Only image files (the extensions of
/// `ImageFormat.fileExtensions`) are taken from folders; a file named explicitly is always attempted, so a
/// mislabelled file still gets a clear error, and every file's format is told by its bytes. A path that does
/// not exist or a folder that cannot be listed becomes an entry carrying its error, so it is reported in its
/// place and the rest goes on.
public enum ImageFileCollector {
    public struct Entry: Sendable, Hashable {
        public var path: String
        /// Set when the entry could not be listed (a missing path, a folder without permission): reported,
        /// not fatal.
        public var error: String?

        public init(path: String, error: String? = nil) {
            self.path = path
            self.error = error
        }
    }

    public static func isImageFile(_ name: String) -> Bool {
        ImageFormat.hasImageExtension(name)
    }

    public static func collect(_ paths: [String]) -> [Entry] {
        var out: [Entry] = []
        var visited = Set<String>()
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                out.append(Entry(path: path, error: "no such file or folder: \(path)"))
                continue
            }
            if isDirectory.boolValue {
                walk(path, visited: &visited, into: &out)
            } else {
                out.append(Entry(path: path, error: isSpecialFile(path) ? "not a regular file: \(path)" : nil))
            }
        }
        return out
    }

    /// A FIFO, socket or device: opening one to read it could block forever.
    static func isSpecialFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    private static func walk(_ folder: String, visited: inout Set<String>, into out: inout [Entry]) {
        // A symbolic link back up the tree must not loop forever.
        let real = realPath(folder)
        guard visited.insert(real).inserted else { return }
        let fm = FileManager.default
        if access(folder, R_OK | X_OK) != 0 {
            let why = errno == EACCES ? "permission denied" : String(cString: strerror(errno))
            out.append(Entry(path: folder, error: "cannot list folder \(folder): \(why)"))
            return
        }
        guard let names = try? fm.contentsOfDirectory(atPath: folder) else {
            out.append(Entry(path: folder, error: "cannot list folder \(folder)"))
            return
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }  // a dangling link
            if isDirectory.boolValue {
                walk(path, visited: &visited, into: &out)
            } else if isImageFile(name), !isSpecialFile(path) {
                out.append(Entry(path: path))
            }
        }
    }

    private static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
