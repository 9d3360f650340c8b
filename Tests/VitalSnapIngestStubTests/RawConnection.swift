import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP client on loopback that sends exact bytes and reports exactly what came back, and how the connection
/// ended: what URLSession hides (a dropped connection with nothing written, a malformed request).
struct RawConnection {
    enum Ending: Equatable {
        /// The server closed the connection (FIN or reset) after sending `bytes`.
        case closed
        /// Nothing more within the timeout, the connection still open.
        case timedOut
    }

    enum Failure: Error, Equatable {
        case refused
        case other(Int32)
    }

    /// Connects, sends `request` and reads until the server closes the connection or `timeout` passes in silence.
    static func exchange(port: UInt16, _ request: Data, timeout: TimeInterval = 5) throws -> (bytes: Data, ending: Ending) {
        let fd = try connect(port: port)
        defer { close(fd) }
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        // A send cut short (the server closed early) still leaves what the server wrote to read.
        _ = request.withUnsafeBytes { raw -> Bool in
            while sent < raw.count {
                let n = send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                sent += n
            }
            return true
        }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n > 0 {
                received.append(contentsOf: chunk[0 ..< n])
                continue
            }
            if n == 0 || errno == ECONNRESET || errno == EPIPE { return (received, .closed) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return (received, .timedOut) }
            throw Failure.other(errno)
        }
    }

    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.other(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            let code = errno
            close(fd)
            throw code == ECONNREFUSED ? Failure.refused : Failure.other(code)
        }
        return fd
    }

    /// Whether a connection to `port` is refused.
    static func isRefused(port: UInt16) -> Bool {
        do {
            close(try connect(port: port))
            return false
        } catch {
            return error as? Failure == .refused
        }
    }

    /// An HTTP/1.1 request's bytes.
    static func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: Data = Data(), close: Bool = true
    ) -> Data {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if close { head += "Connection: close\r\n" }
        head += "\r\n"
        return Data(head.utf8) + body
    }
}

/// An HTTP answer's status line, headers and body, read from raw bytes.
struct RawAnswer {
    var status: Int
    var headers: [String: String]
    var body: Data

    init?(_ bytes: Data) {
        guard let end = bytes.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        self.status = status
        headers = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        body = Data(bytes[end.upperBound...])
    }

    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
}
