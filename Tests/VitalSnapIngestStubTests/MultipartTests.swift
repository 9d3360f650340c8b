import Foundation
import VitalSnapCore
@testable import VitalSnapIngestStub
import XCTest

/// The media upload's one part, found in whole bodies the way the uploader and other clients write them.
final class MultipartTests: XCTestCase {
    private func body(_ parts: [(headers: String, content: Data)], boundary: String = "b0undary", preamble: String = "") -> Data {
        var body = Data(preamble.utf8)
        for part in parts {
            body += Data("--\(boundary)\r\n\(part.headers)\r\n\r\n".utf8) + part.content + Data("\r\n".utf8)
        }
        return body + Data("--\(boundary)--\r\n".utf8)
    }

    func testTheUploadersBodyGivesBackTheImageExactly() {
        let image = Data([0xFF, 0xD8] + (0..<10_000).map { UInt8(($0 * 13) & 0xFF) })
        let boundary = "Boundary-\(UUID().uuidString)"
        let upload = IngestionRoutes.mediaBody(image: image, fileName: "a.jpg", boundary: boundary)
        XCTAssertEqual(Multipart.part(named: "media", in: upload, contentType: "multipart/form-data; boundary=\(boundary)"), image)
    }

    func testContentThatLooksLikeADelimiterIsKept() {
        // CRLF, dashes and the boundary without its leading CRLF are all content.
        let content = Data("line\r\n--b0undar\r\n-- b0undary\r\nx--b0undary\r\n".utf8)
        let multipart = body([(#"Content-Disposition: form-data; name="media"; filename="x.png""#, content)])
        XCTAssertEqual(Multipart.part(named: "media", in: multipart, contentType: "multipart/form-data; boundary=b0undary"), content)
    }

    func testThePartIsFoundByItsNameNotByAFilenameOrItsPlace() {
        let multipart = body([
            (#"Content-Disposition: form-data; name="caption"; filename="media""#, Data("caption".utf8)),
            ("Content-Type: text/plain", Data("no disposition".utf8)),
            ("Content-Type: image/jpeg\r\ncontent-disposition: FORM-DATA; filename=\"a;name=media.jpg\"; NAME=media", Data("image".utf8)),
        ], preamble: "ignored preamble\r\n")
        XCTAssertEqual(Multipart.part(named: "media", in: multipart, contentType: "multipart/form-data; boundary=b0undary"), Data("image".utf8))
        XCTAssertEqual(Multipart.part(named: "caption", in: multipart, contentType: "multipart/form-data; boundary=b0undary"), Data("caption".utf8))
        XCTAssertNil(Multipart.part(named: "other", in: multipart, contentType: "multipart/form-data; boundary=b0undary"))
    }

    func testTheBoundaryIsReadQuotedOrNotAmongOtherParameters() {
        let multipart = body([(#"Content-Disposition: form-data; name="media""#, Data("x".utf8))], boundary: "a b;c")
        XCTAssertEqual(Multipart.part(named: "media", in: multipart, contentType: #"multipart/form-data; charset=utf-8; Boundary="a b;c""#), Data("x".utf8))
        XCTAssertEqual(Multipart.boundary(in: "multipart/form-data; boundary=abc ; charset=utf-8"), "abc")
        XCTAssertNil(Multipart.boundary(in: "multipart/form-data"))
        XCTAssertNil(Multipart.boundary(in: "multipart/form-data; boundary="))
        XCTAssertNil(Multipart.boundary(in: #"multipart/form-data; boundary="""#))
    }

    func testAnEmptyPartIsEmptyData() {
        let multipart = body([(#"Content-Disposition: form-data; name="media""#, Data())])
        XCTAssertEqual(Multipart.part(named: "media", in: multipart, contentType: "multipart/form-data; boundary=b0undary"), Data())
    }

    func testBrokenBodiesFindNothingAndDoNotTrap() {
        let type = "multipart/form-data; boundary=b0undary"
        let whole = body([(#"Content-Disposition: form-data; name="media""#, Data("image".utf8))])
        XCTAssertNil(Multipart.part(named: "media", in: whole, contentType: "application/json"), "no boundary")
        XCTAssertNil(Multipart.part(named: "media", in: whole, contentType: "multipart/form-data; boundary=other"))
        XCTAssertNil(Multipart.part(named: "media", in: Data(), contentType: type))
        // Every cut of the body short of its closing delimiter: never a part that was not whole, never a trap.
        let closing = whole.count - "--b0undary--\r\n".utf8.count
        for length in 0 ..< whole.count {
            let found = Multipart.part(named: "media", in: whole.prefix(length), contentType: type)
            if length < closing + "--b0undary".utf8.count {
                XCTAssertNil(found, "cut at \(length)")
            } else {
                XCTAssertEqual(found, Data("image".utf8), "cut at \(length)")
            }
        }
        // A slice that does not start at index 0 reads the same.
        let padded = Data("xx".utf8) + whole
        XCTAssertEqual(Multipart.part(named: "media", in: padded.dropFirst(2), contentType: type), Data("image".utf8))
        // Headers without an end, a delimiter line without its CRLF.
        XCTAssertNil(Multipart.part(named: "media", in: Data("--b0undary\r\nContent-Disposition: form-data; name=media".utf8), contentType: type))
        XCTAssertNil(Multipart.part(named: "media", in: Data("--b0undary".utf8), contentType: type))
        XCTAssertNil(Multipart.part(named: "media", in: Data("--b0undary--\r\n".utf8), contentType: type))
    }
}
