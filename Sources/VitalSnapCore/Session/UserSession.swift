import Foundation

/// The user records are uploaded for: Validic's user ID, organization ID and the user's mobile access token,
/// and the base URL the ingestion routes are appended to.
public struct UserSession: Codable, Sendable, Hashable {
    public static let defaultEndpoint = URL(string: "https://mobile.validic.com/v1")!

    public var userID: String
    public var organizationID: String
    public var accessToken: String
    public var endpoint: URL

    public init(userID: String, organizationID: String, accessToken: String, endpoint: URL = UserSession.defaultEndpoint) {
        self.userID = userID
        self.organizationID = organizationID
        self.accessToken = accessToken
        self.endpoint = endpoint
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case organizationID = "organization_id"
        case accessToken = "access_token"
        case endpoint
    }

    /// The token with all but its last four characters hidden, for printing.
    public var maskedToken: String {
        let visible = accessToken.count > 8 ? 4 : 0
        return String(repeating: "*", count: max(4, accessToken.count - visible)) + accessToken.suffix(visible)
    }

    /// Empty identifiers and endpoints that are not http(s) URLs are refused when a session starts, not at upload.
    public func validate() throws(SessionError) {
        if userID.isEmpty { throw .missing("user ID") }
        if organizationID.isEmpty { throw .missing("organization ID") }
        if accessToken.isEmpty { throw .missing("access token") }
        for (name, value) in [("user ID", userID), ("organization ID", organizationID)] {
            // They become path segments of the routes.
            if value.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace }) {
                throw .invalid("\(name) \(value) contains a character a URL path cannot carry")
            }
        }
        guard let scheme = endpoint.scheme?.lowercased(), scheme == "https" || scheme == "http", endpoint.host != nil else {
            throw .invalid("endpoint \(endpoint.absoluteString) is not an http or https URL")
        }
    }
}

public enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(String)
    case invalid(String)
    case noSession

    public var description: String {
        switch self {
        case .missing(let what): "the \(what) is empty"
        case .invalid(let why): why
        case .noSession: "no session: start one with `vitalsnap session start --user U --org O --token T`"
        }
    }
}
