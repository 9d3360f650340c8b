import Foundation
import VitalSnapRecords

/// The mobile ingestion routes of Validic's SDK, appended to the session's endpoint.
public struct IngestionRoutes: Sendable {
    public let session: UserSession

    public init(session: UserSession) {
        self.session = session
    }

    private var userBase: URL {
        session.endpoint
            .appendingPathComponent("organizations").appendingPathComponent(session.organizationID)
            .appendingPathComponent("users").appendingPathComponent(session.userID)
    }

    /// `POST organizations/{org}/users/{user}/{type}.json`
    public func record(_ type: RecordType) -> URL {
        userBase.appendingPathComponent("\(type.rawValue).json")
    }

    /// `POST organizations/{org}/users/{user}/{type}/{record_id}/media`
    public func media(_ type: RecordType, serverRecordID: String) -> URL {
        userBase.appendingPathComponent(type.rawValue).appendingPathComponent(serverRecordID).appendingPathComponent("media")
    }

    /// The headers the SDK sends with every request.
    public var headers: [String: String] {
        ["Validic-Version": "2015-10-01", "X-Validic-Mobile-Token": session.accessToken, "Accept": "application/json"]
    }

    /// `{"authentication_token": "...", "<type>": {record}}`, with the record's stored JSON as it is.
    public func recordBody(type: RecordType, recordJSON: Data) -> Data {
        var body = Data(#"{"authentication_token":"#.utf8)
        body.append((try? JSONSerialization.data(withJSONObject: session.accessToken, options: .fragmentsAllowed)) ?? Data("\"\"".utf8))
        body.append(Data(",\"\(type.rawValue)\":".utf8))
        // The stored JSON is the record keyed by its type; the body wants the inner object.
        body.append(Self.innerObject(of: recordJSON, type: type) ?? recordJSON)
        body.append(Data("}".utf8))
        return body
    }

    /// The stored JSON is `{"<type>":{...}}` as `Record` encodes it; the bytes of the inner object are cut out
    /// rather than re-encoded, so numbers go exactly as they were validated.
    static func innerObject(of recordJSON: Data, type: RecordType) -> Data? {
        let prefix = Data("{\"\(type.rawValue)\":".utf8)
        guard recordJSON.starts(with: prefix), recordJSON.last == UInt8(ascii: "}") else { return nil }
        return recordJSON.subdata(in: (recordJSON.startIndex + prefix.count)..<(recordJSON.endIndex - 1))
    }

    /// A multipart body with one part, `media`, holding the image file.
    public static func mediaBody(image: Data, fileName: String, boundary: String) -> Data {
        let type = fileName.hasSuffix(".png") ? "image/png" : "image/jpeg"
        var body = Data()
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"media\"; filename=\"\(fileName)\"\r\nContent-Type: \(type)\r\n\r\n".utf8))
        body.append(image)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return body
    }
}
