import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON Lines file of `batch --resume FILE`: the files a previous run already has a result for, and the
/// file opened to append the rest.
///
/// A run killed while writing can leave its last line cut short: that line is not counted as done and is cut
/// off before anything is appended, so every input ends up in the file exactly once. Results are appended
/// through a `LineOutput` (one `write` per line) on a descriptor opened for appending, so a kill between two
/// results loses nothing and one during a write cuts at most that line.
final class BatchResumeLog {
    let path: String
    /// The `file` of every complete line already in the file.
    let done: Set<String>
    private let descriptor: Int32
    /// Where the results go: appended to the file.
    let output: LineOutput

    /// Opens (creates) `path` to append to it; `readOnly` only reads what is done (for `--dry-run`), changing
    /// nothing, and a file that does not exist is then empty.
    init(path: String, readOnly: Bool = false) throws(CommandFailure) {
        self.path = path
        if readOnly && access(path, F_OK) != 0 {
            done = []
            descriptor = -1
            output = LineOutput(descriptor: -1, name: path)
            return
        }
        let descriptor = open(path, readOnly ? O_RDONLY | O_CLOEXEC : O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CommandFailure("cannot open \(path) to resume: \(Self.lastError())") }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw CommandFailure("cannot resume into \(path): not a regular file")
        }
        do throws(CommandFailure) {
            let (done, complete) = try Self.scan(descriptor, path: path)
            if !readOnly, complete < Int(info.st_size), ftruncate(descriptor, off_t(complete)) != 0 {
                throw CommandFailure("cannot cut the unfinished last line of \(path): \(Self.lastError())")
            }
            self.done = done
            self.descriptor = descriptor
            output = LineOutput(descriptor: descriptor, name: path)
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The `file` values of the complete lines, and the byte length of those lines (where a cut-off last
    /// line, if any, starts). Lines that are not a JSON object with a `file` string are skipped, not counted.
    private static func scan(_ descriptor: Int32, path: String) throws(CommandFailure) -> (Set<String>, Int) {
        var done = Set<String>()
        var pending: [UInt8] = []
        var offset = 0, complete = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot read \(path) to resume: \(lastError())")
            }
            if n == 0 { break }
            offset += n
            var start = 0
            for i in 0..<n where chunk[i] == 0x0A {
                pending.append(contentsOf: chunk[start..<i])
                if let file = fileOfLine(pending) { done.insert(file) }
                pending.removeAll(keepingCapacity: true)
                start = i + 1
                complete = offset - n + i + 1
            }
            pending.append(contentsOf: chunk[start..<n])
        }
        return (done, complete)
    }

    private static func fileOfLine(_ bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { return nil }
        return object["file"] as? String
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
