/// Who may drive a capture view: only a page loaded from the printed URL, on this machine.
///
/// Every request must name the view's token as the first component of its path (the printed URL holds it, and
/// the page's relative links keep it), and its `Host` must be the address and port the view listens on, so
/// that a web page elsewhere that resolves its own name to 127.0.0.1 (DNS rebinding) is refused too. A
/// WebSocket upgrade must also come from a page of the view's own origin. The view sends no CORS headers, so
/// browsers keep other origins' scripts from reading its answers.
public struct ViewAccessPolicy: Sendable {
    public let token: ViewToken
    /// The host names the view answers to (`127.0.0.1`, `localhost`, or the address given to listen on).
    public let hosts: Set<String>
    public let port: Int

    public init(token: ViewToken, listenAddress: String, port: Int) {
        self.token = token
        var hosts: Set<String> = [listenAddress.lowercased()]
        if Self.loopbackAddresses.contains(listenAddress) { hosts.formUnion(["127.0.0.1", "localhost", "[::1]"]) }
        self.hosts = hosts
        self.port = port
    }

    /// The addresses that are this machine's own loopback.
    public static let loopbackAddresses: Set<String> = ["127.0.0.1", "localhost", "::1"]

    /// Whether a request's `Host` (its authority: `host:port`) names the view.
    public func allows(host authority: String?) -> Bool {
        guard let authority, let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...])
        else { return false }
        return port == self.port && hosts.contains(authority[..<colon].lowercased())
    }

    /// Whether a WebSocket upgrade's `Origin` is a page of the view itself (`http://host:port`).
    public func allows(origin: String?) -> Bool {
        guard let origin, origin.hasPrefix("http://") else { return false }
        return allows(host: String(origin.dropFirst("http://".count)))
    }

    /// Whether `path` starts with the view's token (`/<token>/...`).
    public func allows(path: String) -> Bool {
        let components = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true)
        return components.first.map { $0 == token.value } ?? false
    }
}
