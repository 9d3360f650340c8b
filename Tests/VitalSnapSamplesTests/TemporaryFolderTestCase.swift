import Foundation
import XCTest

/// A test case that makes temporary folders and removes them after each test.
class TemporaryFolderTestCase: XCTestCase {
    private var folders: [URL] = []

    override func tearDown() {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        folders = []
        super.tearDown()
    }

    /// A fresh path in the temporary directory (not created), removed after the test.
    func temporaryFolder(_ prefix: String = "vitalsnap-samples-test") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        folders.append(url)
        return url
    }
}
