import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A request written by hand to a loopback port, for headers a browser or URLSession would not send (a foreign
/// `Host`, a forged `Origin`, a malformed request line): the answer's status line and headers.
struct RawHTTP {
    /// Seconds to wait for an answer the test needs (see `send`).
    static let defaultTimeout: Double = 120

    struct Answer {
        var status: Int
        var head: String
        var body: String
    }

    /// Sends `request` (with `\r\n` line ends and the blank line) to 127.0.0.1:`port`; nil when the server closed
    /// the connection, or stayed silent for `timeout` seconds, without an answer. Waits on a thread of its own: a
    /// blocked wait on one of Swift's few cooperative threads could keep the server under test from answering at all.
    ///
    /// The default wait is long because the server's handlers share those cooperative threads with every other
    /// suite `swift test` runs at once: on CI's two cores, busy with the readers' accuracy suites, the view's page
    /// once took longer than the 10 s this used to wait, and the test read the silence as a refusal. Only callers for
    /// whom silence is a fine answer (a hostile request the server may just drop) pass a short one.
    static func send(_ request: String, port: Int, timeout: Double = defaultTimeout) async throws -> Answer? {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try blockingSend(request, port: port, timeout: timeout) })
            }.start()
        }
    }

    private static func blockingSend(_ request: String, port: Int, timeout: Double) throws -> Answer? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            received += chunk[0..<n]
            // An upgrade's answer is its head alone (the connection then stays open); others end with the
            // connection, which `Connection: close` asks for.
            if received.starts(with: Array("HTTP/1.1 101".utf8)), String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
                break
            }
        }
        guard !received.isEmpty else { return nil }
        let text = String(decoding: received, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n").first ?? text
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Answer(status: status, head: head, body: String(text.dropFirst(head.count + 4)))
    }

    /// `GET path` with the given `Host` and extra header lines.
    static func get(_ path: String, host: String, port: Int, headers: [String] = []) async throws -> Answer? {
        try await send((["GET \(path) HTTP/1.1", "Host: \(host)", "Connection: close"] + headers).joined(separator: "\r\n") + "\r\n\r\n", port: port)
    }

    /// A WebSocket upgrade of `path` from a page of `origin`.
    static func upgrade(_ path: String, host: String, origin: String?, port: Int) async throws -> Answer? {
        var lines = [
            "GET \(path) HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
        ]
        if let origin { lines.append("Origin: \(origin)") }
        return try await send(lines.joined(separator: "\r\n") + "\r\n\r\n", port: port)
    }
}
