import Foundation
import VitalSnapCore
import VitalSnapRecords
import XCTest

extension XCTestCase {
    /// A fresh data directory under the temporary folder, removed after the test.
    func makeDataDirectory() -> DataDirectory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-core-\(UUID().uuidString)").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return DataDirectory(path: path)
    }

    /// A glucose record with its own activity ID, at a fixed time (2024-03-05 07:10 at -05:00); `value` in mg/dL.
    func glucose(_ value: Double, id: String = UUID().uuidString) throws -> Record {
        let header = RecordHeader(
            activityID: id, timestamp: Date(timeIntervalSince1970: 1_709_640_600), utcOffset: UTCOffset(seconds: -18_000)!)
        return .diabetes(try DiabetesRecord(header: header, bloodGlucose: value, unit: .mgPerDL))
    }
}
