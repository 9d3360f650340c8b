import Foundation

/// A folder exports arrive in, watched with inotify: a file is reported once it is complete (closed after
/// writing, or moved in whole, as a browser or rsync finishes a download). Only `.zip` and `.xml` files count.
public final class HealthFolderWatcher {
    public let folder: String
    private let fd: Int32
    private let buffer: UnsafeMutableRawBufferPointer

    /// Room for many events at once (each is 16 bytes plus the name).
    static let bufferSize = 64 * 1024
    static let extensions = ["zip", "xml"]

    public init(folder: String) throws(HealthImportError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .cannotOpen(path: folder, reason: "no such folder")
        }
        let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard fd >= 0 else { throw .cannotOpen(path: folder, reason: "inotify: \(String(cString: strerror(errno)))") }
        guard inotify_add_watch(fd, folder, UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .cannotOpen(path: folder, reason: "cannot watch it: \(reason)")
        }
        self.folder = folder
        self.fd = fd
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 8)
    }

    deinit {
        close(fd)
        buffer.deallocate()
    }

    static func isExport(_ name: String) -> Bool {
        !name.hasPrefix(".") && extensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// The exports already in the folder, oldest first (by modification time), as paths.
    public func existing() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter(Self.isExport).map { folder + "/" + $0 }.sorted { Self.modified($0) < Self.modified($1) }
    }

    /// `size:mtime` of a file: what tells a new export from one already imported under the same name.
    public static func fingerprint(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "" }
        return "\(info.st_size):\(info.st_mtim.tv_sec)"
    }

    static func modified(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mtim.tv_sec : 0
    }

    /// The exports completed within `timeout` seconds (none when it passes), as paths.
    public func wait(timeout: Double) -> [String] {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return [] }
        var paths: [String] = []
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            guard n > 0 else { break }
            var offset = 0
            // Each event: wd (4), mask (4), cookie (4), len (4), then a NUL-padded name of len bytes.
            while offset + 16 <= n {
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                if length > 0 {
                    let name = String(cString: buffer.baseAddress!.advanced(by: offset + 16).assumingMemoryBound(to: CChar.self))
                    if Self.isExport(name) { paths.append(folder + "/" + name) }
                }
                offset += 16 + length
            }
        }
        return paths
    }
}
