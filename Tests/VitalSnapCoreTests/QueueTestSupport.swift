import Foundation
import VitalSnapCore
import XCTest

extension XCTestCase {
    /// A fresh data directory under the temporary folder, removed after the test.
    func makeDataDirectory() -> DataDirectory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-core-\(UUID().uuidString)").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return DataDirectory(path: path)
    }

    /// A glucose record with its own activity ID; `value` in mg/dL.
    func glucose(_ value: Double, id: String = UUID().uuidString) throws -> Record {
        .diabetes(try DiabetesRecord(header: Fixtures.header(activityID: id), bloodGlucose: value, unit: .mgPerDL))
    }
}
