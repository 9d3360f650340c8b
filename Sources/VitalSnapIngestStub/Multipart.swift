import Foundation

/// Just enough multipart/form-data (RFC 7578) to find one part's bytes in a whole request body.
///
/// Hummingbird has no multipart support; this reads the media upload's body after Hummingbird has read the HTTP
/// request. It finds the boundary in the Content-Type, walks the delimiters, and returns the content of the first
/// part whose Content-Disposition `name` parameter is the one asked for (not a `filename` that happens to match).
enum Multipart {
    static func part(named name: String, in body: Data, contentType: String) -> Data? {
        guard let boundary = boundary(in: contentType) else { return nil }
        let delimiter = Data(("--" + boundary).utf8)
        let crlf = Data("\r\n".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        // The first delimiter opens the body or a line of its own (anything before it is preamble).
        guard var delimiterAt = body.starts(with: delimiter)
            ? body.startIndex ..< body.startIndex + delimiter.count
            : body.range(of: crlf + delimiter).map({ ($0.lowerBound + 2) ..< $0.upperBound })
        else { return nil }
        while true {
            let afterDelimiter = delimiterAt.upperBound
            // `--` after a delimiter closes the body.
            if body[afterDelimiter...].starts(with: Data("--".utf8)) { return nil }
            // The rest of the delimiter's line (transport padding) ends with CRLF; the part's headers follow.
            guard let lineEnd = body.range(of: crlf, in: afterDelimiter ..< body.endIndex) else { return nil }
            let headersStart = lineEnd.upperBound
            let headersEnd: Range<Data.Index>
            if body[headersStart...].starts(with: crlf) {
                headersEnd = headersStart ..< headersStart + 2  // no headers at all
            } else if let end = body.range(of: headerEnd, in: headersStart ..< body.endIndex) {
                headersEnd = end
            } else {
                return nil
            }
            // The content runs to the CRLF before the next delimiter.
            guard let next = body.range(of: crlf + delimiter, in: headersEnd.upperBound ..< body.endIndex) else { return nil }
            let headers = String(decoding: body[headersStart ..< headersEnd.lowerBound], as: UTF8.self)
            if dispositionName(in: headers) == name { return Data(body[headersEnd.upperBound ..< next.lowerBound]) }
            delimiterAt = (next.lowerBound + 2) ..< next.upperBound
        }
    }

    /// The `boundary` parameter of a multipart Content-Type, unquoted.
    static func boundary(in contentType: String) -> String? {
        guard let value = parameter("boundary", in: contentType), !value.isEmpty else { return nil }
        return value
    }

    /// The `name` parameter of a part's `Content-Disposition: form-data; name="..."` header.
    static func dispositionName(in headers: String) -> String? {
        for line in headers.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":"),
                  line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition"
            else { continue }
            return parameter("name", in: String(line[line.index(after: colon)...]))
        }
        return nil
    }

    /// A parameter of a header value such as `form-data; name="media"; filename="a;b.jpg"`: the `;` that separate
    /// parameters are those outside quotes; the value is unquoted.
    static func parameter(_ wanted: String, in value: String) -> String? {
        var fields: [String] = []
        var field = ""
        var quoted = false
        for character in value {
            if character == "\"" { quoted.toggle() }
            if character == ";" && !quoted {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        for field in fields.dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == wanted else { continue }
            let text = pair[1]
            return text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
        }
        return nil
    }
}
