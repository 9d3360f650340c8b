#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines written to a file descriptor, each with one `write` of the whole line as soon as it is given: nothing
/// waits in a buffer, so a killed run loses no line it has written and at most cuts the one being written,
/// and a full disk or a failing device is reported at the line it hits, not lost silently.
final class LineOutput {
    let name: String
    private let descriptor: Int32

    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    static func standardOutput() -> LineOutput { LineOutput(descriptor: STDOUT_FILENO, name: "standard output") }

    /// Writes `line` and a newline.
    func write(_ line: String) throws(CommandFailure) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.write(descriptor, raw.baseAddress, raw.count)
                #else
                Darwin.write(descriptor, raw.baseAddress, raw.count)
                #endif
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot write to \(name): \(String(cString: strerror(errno)))")
            }
            written += n
        }
    }
}
