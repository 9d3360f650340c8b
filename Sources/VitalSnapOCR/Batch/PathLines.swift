import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The paths listed in a file or on standard input, one per line, read as they are consumed (a pipe from
/// `find` or a scheduler can be longer than memory). A trailing carriage return is dropped; empty lines are
/// skipped. A path holding a line break cannot be given this way.
public final class PathLines: Sequence, IteratorProtocol {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    /// Set when reading stopped on an error rather than at the end.
    public private(set) var readError: String?

    /// Reads `path`, or standard input for `-`.
    public init(path: String) throws(PathLinesError) {
        if path == "-" {
            // A stream of its own over standard input's descriptor, closed with this reader.
            guard let opened = fdopen(dup(STDIN_FILENO), "r") else {
                throw .cannotOpen("standard input", reason: String(cString: strerror(errno)))
            }
            file = opened
        } else {
            guard let opened = fopen(path, "r") else {
                throw .cannotOpen(path, reason: String(cString: strerror(errno)))
            }
            var info = stat()
            if fstat(fileno(opened), &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                fclose(opened)
                throw .cannotOpen(path, reason: "it is a folder")
            }
            file = opened
        }
    }

    deinit {
        free(buffer)
        fclose(file)
    }

    public func next() -> String? {
        while true {
            errno = 0
            let length = getline(&buffer, &capacity, file)
            guard length >= 0, let buffer else {
                if ferror(file) != 0 { readError = String(cString: strerror(errno)) }
                return nil
            }
            var end = length
            while end > 0, buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D { end -= 1 }
            guard end > 0 else { continue }
            return buffer.withMemoryRebound(to: UInt8.self, capacity: end) {
                String(decoding: UnsafeBufferPointer(start: $0, count: end), as: UTF8.self)
            }
        }
    }
}

public enum PathLinesError: Error, CustomStringConvertible, Equatable {
    case cannotOpen(String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot read the list of paths \(path): \(reason)"
        }
    }
}
