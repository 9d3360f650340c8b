import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange's outcome as the uploader sorts it: an answer with a status, or no answer at all.
public enum HTTPOutcome: Sendable {
    case answered(status: Int, body: Data)
    /// Refused connection, timeout, dropped connection, DNS failure: the server may or may not have the request.
    case noAnswer(String)
}

/// Sends one request and waits for the whole answer, with a timeout; never throws.
public struct HTTPClient: Sendable {
    private let session: URLSession

    public init(timeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    public func post(_ url: URL, body: Data, contentType: String, headers: [String: String]) async -> HTTPOutcome {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .noAnswer("not an HTTP answer") }
            return .answered(status: http.statusCode, body: data)
        } catch let error as URLError {
            return .noAnswer(Self.describe(error, url: url))
        } catch {
            return .noAnswer("\(error)")
        }
    }

    static func describe(_ error: URLError, url: URL) -> String {
        let host = url.host.map { "\($0)\(url.port.map { ":\($0)" } ?? "")" } ?? url.absoluteString
        switch error.code {
        case .cannotConnectToHost: return "\(host) refused the connection"
        case .timedOut: return "\(host) did not answer in time"
        case .networkConnectionLost: return "\(host) dropped the connection"
        case .cannotFindHost, .dnsLookupFailed: return "cannot find \(host)"
        case .notConnectedToInternet: return "no network"
        default: return "\(host): \(error.localizedDescription)"
        }
    }
}
