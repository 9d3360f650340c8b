import Foundation
import VitalSnapCore
import VitalSnapRecords
import XCTest

final class SessionTests: XCTestCase {
    func testTheDataDirectoryIsChosenInTheDocumentedOrder() {
        let env = ["VITALSNAP_DATA_DIR": "/env/dir", "XDG_DATA_HOME": "/xdg", "HOME": "/home/me"]
        XCTAssertEqual(DataDirectory.resolve(explicit: "/cli", environment: env).path, "/cli")
        XCTAssertEqual(DataDirectory.resolve(explicit: nil, environment: env).path, "/env/dir")
        XCTAssertEqual(DataDirectory.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/me"]).path, "/xdg/vitalsnap")
        XCTAssertEqual(DataDirectory.resolve(explicit: nil, environment: ["HOME": "/home/me"]).path, "/home/me/.local/share/vitalsnap")
        // A relative XDG_DATA_HOME is invalid by the spec and ignored.
        XCTAssertEqual(DataDirectory.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/me"]).path, "/home/me/.local/share/vitalsnap")
        XCTAssertEqual(DataDirectory.resolve(explicit: "", environment: ["VITALSNAP_DATA_DIR": "/env/dir"]).path, "/env/dir")
    }

    func testASessionRoundTripsThroughItsPrivateFile() throws {
        let directory = makeDataDirectory()
        let store = SessionStore(directory: directory)
        XCTAssertNil(try store.load())
        let session = UserSession(userID: "u1", organizationID: "o1", accessToken: "abcdefghijkl", endpoint: URL(string: "http://127.0.0.1:9/v1")!)
        try store.save(session)
        XCTAssertEqual(try store.load(), session)
        var info = stat()
        XCTAssertEqual(stat(directory.sessionFile, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        try store.delete()
        XCTAssertNil(try store.load())
    }

    func testAnUnreadableSessionFileIsAnErrorNotAnEmptySession() throws {
        let directory = makeDataDirectory()
        try directory.create()
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: directory.sessionFile))
        XCTAssertThrowsError(try SessionStore(directory: directory).load()) { error in
            guard case .cannotRead = error as? StorageError else { return XCTFail("\(error)") }
        }
    }

    func testSessionsWithUnusableFieldsAreRefused() {
        func check(_ session: UserSession, _ expected: String) {
            XCTAssertThrowsError(try session.validate()) { XCTAssertTrue("\($0)".contains(expected), "\($0)") }
        }
        let url = UserSession.defaultEndpoint
        check(UserSession(userID: "", organizationID: "o", accessToken: "t", endpoint: url), "user ID")
        check(UserSession(userID: "u", organizationID: "o", accessToken: "", endpoint: url), "access token")
        check(UserSession(userID: "a/b", organizationID: "o", accessToken: "t", endpoint: url), "user ID a/b")
        check(UserSession(userID: "u", organizationID: "o", accessToken: "t", endpoint: URL(string: "ftp://host/v1")!), "not an http")
        XCTAssertNoThrow(try UserSession(userID: "u", organizationID: "o", accessToken: "t").validate())
        XCTAssertEqual(UserSession(userID: "u", organizationID: "o", accessToken: "abcdefghijkl").maskedToken, "********ijkl")
    }

    func testRoutesAndBodyAreTheSDKs() throws {
        let session = UserSession(userID: "u1", organizationID: "o1", accessToken: "tok\"en")
        let routes = IngestionRoutes(session: session)
        XCTAssertEqual(routes.record(.diabetes).absoluteString, "https://mobile.validic.com/v1/organizations/o1/users/u1/diabetes.json")
        XCTAssertEqual(routes.media(.weight, serverRecordID: "abc").absoluteString, "https://mobile.validic.com/v1/organizations/o1/users/u1/weight/abc/media")
        XCTAssertEqual(routes.headers["X-Validic-Mobile-Token"], "tok\"en")
        let record = try glucose(104)
        let body = routes.recordBody(type: .diabetes, recordJSON: try RecordJSON.encode(record))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: Any])
        XCTAssertEqual(object["authentication_token"] as? String, "tok\"en")
        let inner = try XCTUnwrap(object["diabetes"] as? [String: Any])
        XCTAssertEqual(inner["activity_id"] as? String, record.activityID)
        XCTAssertEqual(inner["blood_glucose"] as? Double, 104)
    }
}
