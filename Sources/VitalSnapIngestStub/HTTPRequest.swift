import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 request read from a socket: request line, headers (names lowercased) and a Content-Length body.
struct HTTPRequest {
    var method: String
    var path: String
    var headers: [String: String]
    var body: Data

    /// The largest body accepted: big enough for a phone photo.
    static let maximumBody = 32 << 20

    static func read(from fd: Int32) -> HTTPRequest? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
            headerEnd = buffer.range(of: separator)
            if headerEnd == nil && buffer.count > 64 << 10 { return nil }
        }
        let head = String(decoding: buffer[..<headerEnd!.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headerEnd!.upperBound...])
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard length >= 0, length <= maximumBody else { return nil }
        while body.count < length {
            let n = recv(fd, &chunk, min(chunk.count, length - body.count), 0)
            if n <= 0 { return nil }
            body.append(contentsOf: chunk[0..<n])
        }
        return HTTPRequest(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }
}
