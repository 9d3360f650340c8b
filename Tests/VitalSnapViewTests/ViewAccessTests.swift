import Foundation
import Testing
import VitalSnapImaging
import VitalSnapOCR
@testable import VitalSnapView

/// Nobody but the printed URL's page drives the view: the policy on its own, then the running server answering
/// requests written by hand over loopback (a wrong token, a foreign `Host`, a forged `Origin`, malformed and
/// hostile requests), and still answering the right page after them.
struct ViewAccessTests {
    @Test func thePolicyWantsTheTokenTheAddressAndThePort() {
        let token = ViewToken("0123456789abcdef0123456789abcdef")
        let policy = ViewAccessPolicy(token: token, listenAddress: "127.0.0.1", port: 8123)
        #expect(policy.allows(host: "127.0.0.1:8123"))
        #expect(policy.allows(host: "localhost:8123"))
        #expect(!policy.allows(host: "127.0.0.1:8124"))
        #expect(!policy.allows(host: "evil.example:8123"), "DNS rebinding: another name for this machine")
        #expect(!policy.allows(host: "127.0.0.1"))
        #expect(!policy.allows(host: nil))
        #expect(policy.allows(path: "/0123456789abcdef0123456789abcdef/view.js"))
        #expect(policy.allows(path: "/0123456789abcdef0123456789abcdef"))
        #expect(!policy.allows(path: "/0123456789abcdef0123456789abcdee/view.js"))
        #expect(!policy.allows(path: "/view.js"))
        #expect(!policy.allows(path: "/"))
        #expect(policy.allows(origin: "http://127.0.0.1:8123"))
        #expect(!policy.allows(origin: "http://evil.example:8123"))
        #expect(!policy.allows(origin: "https://127.0.0.1:8123"))
        #expect(!policy.allows(origin: "null"))
        #expect(!policy.allows(origin: nil))
        // Listening elsewhere on purpose: only that address.
        let lan = ViewAccessPolicy(token: token, listenAddress: "192.168.1.5", port: 8123)
        #expect(lan.allows(host: "192.168.1.5:8123"))
        #expect(!lan.allows(host: "localhost:8123"))
    }

    @Test func tokensAreLongAndNeverTheSame() {
        let tokens = (0..<100).map { _ in ViewToken().value }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }

    @Test func theServerRefusesEveryoneButThePrintedURLsPage() async throws {
        let (server, url) = try await Self.startServer()
        let port = url.port!, token = url.pathComponents[1], host = "127.0.0.1:\(port)"
        #expect(url.host == "127.0.0.1", "listens on loopback unless told otherwise")
        // The page and its files, with the token.
        let page = try #require(try await RawHTTP.get("/\(token)/", host: host, port: port))
        #expect(page.status == 200)
        #expect(page.body.contains("data-role=\"preview\""))
        #expect(page.head.lowercased().contains("content-security-policy: default-src 'self'"))
        #expect(!page.head.lowercased().contains("access-control-allow-origin"), "no CORS")
        #expect(try await RawHTTP.get("/\(token)/view.js", host: "localhost:\(port)", port: port)?.status == 200)
        // A wrong token, none, a foreign Host: 403.
        #expect(try await RawHTTP.get("/\(String(token.reversed()))/", host: host, port: port)?.status == 403)
        #expect(try await RawHTTP.get("/view.js", host: host, port: port)?.status == 403)
        #expect(try await RawHTTP.get("/", host: host, port: port)?.status == 403)
        #expect(try await RawHTTP.get("/\(token)/", host: "evil.example:\(port)", port: port)?.status == 403)
        #expect(try await RawHTTP.get("/\(token)/", host: "127.0.0.1:1", port: port)?.status == 403)
        // The WebSocket: upgraded for the view's own page only. Hummingbird answers a refused upgrade with 400 and
        // closes the connection; what matters is that none is upgraded.
        func refused(_ answer: RawHTTP.Answer?) -> Bool { (answer?.status ?? 400) >= 400 }
        #expect(refused(try await RawHTTP.upgrade("/\(token)/ws", host: host, origin: "http://evil.example", port: port)))
        #expect(refused(try await RawHTTP.upgrade("/\(token)/ws", host: host, origin: "http://evil.example:\(port)", port: port)))
        #expect(refused(try await RawHTTP.upgrade("/\(token)/ws", host: host, origin: nil, port: port)))
        #expect(refused(try await RawHTTP.upgrade("/\(String(token.reversed()))/ws", host: host, origin: "http://\(host)", port: port)))
        #expect(refused(try await RawHTTP.upgrade("/\(token)/ws", host: "evil.example:\(port)", origin: "http://evil.example:\(port)", port: port)))
        #expect(try await RawHTTP.upgrade("/\(token)/ws", host: host, origin: "http://\(host)", port: port)?.status == 101)
        // Malformed and hostile requests get an error, and the view goes on.
        #expect(try await RawHTTP.send("NONSENSE\r\n\r\n", port: port, timeout: 3).map { $0.status >= 400 } ?? true)
        #expect(try await RawHTTP.get("/\(token)/layout?width=1e99&height=2", host: host, port: port)?.status == 400)
        #expect(try await RawHTTP.get("/\(token)/layout?width=-5&height=2", host: host, port: port)?.status == 400)
        #expect(try await RawHTTP.get("/\(token)/" + String(repeating: "a", count: 10_000), host: host, port: port).map { $0.status >= 400 } ?? true)
        let huge = "GET /\(token)/ HTTP/1.1\r\nHost: \(host)\r\nX-Junk: \(String(repeating: "x", count: 200_000))\r\n\r\n"
        #expect(try await RawHTTP.send(huge, port: port, timeout: 3).map { $0.status >= 400 } ?? true)
        #expect(try await RawHTTP.get("/\(token)/layout?width=800&height=450", host: host, port: port)?.status == 200)
        await server.stop()
    }

    static func startServer() async throws -> (CaptureViewServer, URL) {
        let peripheral = try #require(try PeripheralCatalog.builtIn()[101])
        let server = try CaptureViewServer(peripheral: peripheral, overlayPNG: nil, hub: ViewHub())
        return (server, try await server.start())
    }
}
