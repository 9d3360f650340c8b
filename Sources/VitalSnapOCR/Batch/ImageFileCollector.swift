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
///
/// `stream` does this lazily, for inputs too many to hold (paths read from a pipe, a tree of a million
/// photos): it holds the paths not yet given and one sorted listing per folder being walked.
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

    /// Every entry at once.
    public static func collect(_ paths: [String]) -> [Entry] {
        Array(stream(paths))
    }

    /// The entries one by one, as `paths` (any sequence: an array, the lines of a file) is consumed.
    public static func stream<Paths: Sequence<String>>(_ paths: Paths) -> Stream<Paths.Iterator> {
        Stream(paths: paths.makeIterator())
    }

    /// The lazy expansion of a sequence of paths into entries.
    public struct Stream<Paths: IteratorProtocol<String>>: Sequence, IteratorProtocol {
        private var paths: Paths
        /// The folders being walked, innermost last: each one's sorted names and the next to look at.
        private var folders: [(folder: String, names: [String], next: Int)] = []
        /// Real paths of the folders entered, so a link back up the tree cannot loop.
        private var visited = Set<String>()

        init(paths: Paths) {
            self.paths = paths
        }

        public mutating func next() -> Entry? {
            while true {
                if let entry = nextInFolders() { return entry }
                guard let path = paths.next() else { return nil }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    return Entry(path: path, error: "no such file or folder: \(path)")
                }
                if isDirectory.boolValue {
                    if let error = enter(path) { return error }
                } else {
                    return Entry(path: path, error: ImageFileCollector.isSpecialFile(path) ? "not a regular file: \(path)" : nil)
                }
            }
        }

        /// The next image file of the folders being walked, entering subfolders as they come.
        private mutating func nextInFolders() -> Entry? {
            while let top = folders.indices.last {
                let (folder, names, index) = folders[top]
                guard index < names.count else {
                    folders.removeLast()
                    continue
                }
                folders[top].next = index + 1
                let name = names[index]
                let path = (folder as NSString).appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }  // a dangling link
                if isDirectory.boolValue {
                    if let error = enter(path) { return error }
                } else if ImageFileCollector.isImageFile(name), !ImageFileCollector.isSpecialFile(path) {
                    return Entry(path: path)
                }
            }
            return nil
        }

        /// Pushes a folder's listing; an entry carrying the error when it cannot be listed.
        private mutating func enter(_ folder: String) -> Entry? {
            guard visited.insert(ImageFileCollector.realPath(folder)).inserted else { return nil }
            if access(folder, R_OK | X_OK) != 0 {
                let why = errno == EACCES ? "permission denied" : String(cString: strerror(errno))
                return Entry(path: folder, error: "cannot list folder \(folder): \(why)")
            }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                return Entry(path: folder, error: "cannot list folder \(folder)")
            }
            folders.append((folder, names.filter { !$0.hasPrefix(".") }.sorted(), 0))
            return nil
        }
    }

    /// A FIFO, socket or device: opening one to read it could block forever.
    static func isSpecialFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
