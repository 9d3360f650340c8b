import Foundation
import VitalSnapCore
import VitalSnapHealth
import VitalSnapRecords
import XCTest

/// Exports in, records in the queue out: the mapping, the totals, reruns, and broken files.
final class HealthImporterTests: XCTestCase {
    typealias F = HealthFixture
    private let all = Set(HealthSubscriptionSet.allCases.flatMap(\.identifiers))

    private func makeQueue() throws -> UploadQueue {
        try UploadQueue(directory: DataDirectory(path: try F.folder(removedAfter: self).appendingPathComponent("data").path))
    }

    private func records(_ queue: UploadQueue) throws -> [Record] {
        try queue.pending().map { try RecordJSON.decode($0.json) }
    }

    private func importing(_ data: Data, name: String = "export.xml", into queue: UploadQueue, subscribed: Set<String>? = nil) throws
        -> HealthImportSummary
    {
        let file = try F.folder(removedAfter: self).appendingPathComponent(name)
        try data.write(to: file)
        return try HealthImporter(queue: queue, owner: nil, subscribed: subscribed ?? all).run(HealthExportLocator.locate(file.path))
    }

    func testTheRealSampleExportGivesAHeartRateAndAWorkoutAndASecondImportQueuesNothing() throws {
        let sample = "../shared/data/health/healthkit-to-sqlite-tests-export.xml"
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../\(sample)").standardized.path
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("\(sample) is absent (third-party data, not in the repository)") }
        let queue = try makeQueue()
        let importer = HealthImporter(queue: queue, owner: nil, subscribed: all)
        let first = try importer.run(HealthExportLocator.locate(path))
        XCTAssertNil(first.error)
        XCTAssertEqual(first.queuedByRecordType, ["biometrics": 1, "fitness": 1])
        XCTAssertEqual(first.elementsByType["HKQuantityTypeIdentifierBodyMassIndex"], 1)
        // A BMI with no body mass at its moment makes no weight record.
        XCTAssertEqual(first.skipped["body composition without a weight"], 1)
        let stored = try records(queue)
        let pulse = try XCTUnwrap(stored.compactMap(\.biometrics).first)
        XCTAssertEqual(pulse.restingHeartRate, 72)
        // The export writes "Apple\u{A0}Watch" (a no-break space) as the source; it is kept as written.
        XCTAssertEqual(pulse.header.originalSource, "Apple\u{A0}Watch")
        XCTAssertEqual(pulse.header.device, "Apple Watch")
        XCTAssertEqual(pulse.header.timestampText, "2018-09-10T02:28:55-07:00")
        let run = try XCTUnwrap(stored.compactMap(\.fitness).first)
        XCTAssertEqual(run.activityType, "Running")
        XCTAssertEqual(try XCTUnwrap(run.distance), 0.4971749504535062 * 1609.344, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(run.duration), 5.19412346680959 * 60, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(run.calories), 48.745, accuracy: 1e-9)

        let second = try importer.run(HealthExportLocator.locate(path))
        XCTAssertEqual(second.queued, 0)
        XCTAssertEqual(second.alreadyQueued, 2)
        XCTAssertEqual(try queue.count(), 2)
    }

    func testEachKindBecomesItsRecordInCanonicalUnits() throws {
        let body = [
            F.record("HKQuantityTypeIdentifierBloodGlucose", "99", unit: "mg/dL", start: "2026-03-05 07:10:00 -0500",
                     metadata: [("HKBloodGlucoseMealTime", "1"), ("HKWasUserEntered", "1")]),
            F.record("HKQuantityTypeIdentifierBloodGlucose", "5.5", unit: "mmol&lt;180.1558800000541&gt;/L", start: "2026-03-05 13:10:00 -0500",
                     metadata: [("HKBloodGlucoseMealTime", "2")]),
            F.record("HKQuantityTypeIdentifierBloodGlucose", "90000", unit: "mg/dL", start: "2026-03-05 14:00:00 -0500"),
            F.record("HKQuantityTypeIdentifierHeartRate", "66", unit: "count/min", start: "2026-03-05 09:00:00 -0500", source: "Omron"),
            F.record("HKQuantityTypeIdentifierOxygenSaturation", "0.97", unit: "%", start: "2026-03-05 08:00:00 -0500"),
            F.record("HKQuantityTypeIdentifierBodyTemperature", "98.6", unit: "degF", start: "2026-03-05 08:01:00 -0500"),
            F.record("HKQuantityTypeIdentifierBodyMass", "165", unit: "lb", start: "2026-03-05 06:30:00 -0500"),
            F.record("HKQuantityTypeIdentifierBodyMassIndex", "24.4", unit: "count", start: "2026-03-05 06:30:00 -0500"),
            F.record("HKQuantityTypeIdentifierBodyFatPercentage", "0.224", unit: "%", start: "2026-03-05 06:30:00 -0500"),
            F.record("HKQuantityTypeIdentifierHeight", "70", unit: "in", start: "2026-03-01 10:00:00 -0500"),
            F.record("HKQuantityTypeIdentifierBloodPressureSystolic", "128", unit: "mmHg", start: "2026-03-05 09:00:00 -0500"),
            F.record("HKQuantityTypeIdentifierBloodPressureDiastolic", "82", unit: "mmHg", start: "2026-03-05 09:00:00 -0500"),
            " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Omron\" creationDate=\"2026-03-05 09:00:00 -0500\" startDate=\"2026-03-05 09:00:00 -0500\" endDate=\"2026-03-05 09:00:00 -0500\">\n"
                + F.record("HKQuantityTypeIdentifierBloodPressureSystolic", "128", unit: "mmHg", start: "2026-03-05 09:00:00 -0500", source: "Omron")
                + F.record("HKQuantityTypeIdentifierBloodPressureDiastolic", "82", unit: "mmHg", start: "2026-03-05 09:00:00 -0500", source: "Omron")
                + " </Correlation>\n",
            F.record("HKQuantityTypeIdentifierStepCount", "1200", unit: "count", start: "2026-03-05 08:00:00 -0500", end: "2026-03-05 08:10:00 -0500"),
            F.record("HKQuantityTypeIdentifierStepCount", "800", unit: "count", start: "2026-03-05 18:00:00 -0500", end: "2026-03-05 18:10:00 -0500"),
            F.record("HKQuantityTypeIdentifierStepCount", "500", unit: "count", start: "2026-03-05 09:00:00 -0500", end: "2026-03-05 09:05:00 -0500", source: "Apple Watch"),
            F.record("HKQuantityTypeIdentifierStepCount", "300", unit: "count", start: "2026-03-06 08:00:00 -0500", end: "2026-03-06 08:10:00 -0500"),
            // The watch's hours: two stood, one idle; and a mindful session of ten and a half minutes.
            F.record("HKCategoryTypeIdentifierAppleStandHour", "HKCategoryValueAppleStandHourStood", unit: "", start: "2026-03-05 09:00:00 -0500", end: "2026-03-05 10:00:00 -0500", source: "Apple Watch"),
            F.record("HKCategoryTypeIdentifierAppleStandHour", "HKCategoryValueAppleStandHourIdle", unit: "", start: "2026-03-05 10:00:00 -0500", end: "2026-03-05 11:00:00 -0500", source: "Apple Watch"),
            F.record("HKCategoryTypeIdentifierAppleStandHour", "HKCategoryValueAppleStandHourStood", unit: "", start: "2026-03-05 11:00:00 -0500", end: "2026-03-05 12:00:00 -0500", source: "Apple Watch"),
            F.record("HKCategoryTypeIdentifierMindfulSession", "HKCategoryValueNotApplicable", unit: "", start: "2026-03-05 21:00:00 -0500", end: "2026-03-05 21:10:30 -0500", source: "Apple Watch"),
            F.record("HKQuantityTypeIdentifierDistanceWalkingRunning", "1.5", unit: "km", start: "2026-03-05 08:00:00 -0500"),
            F.record("HKQuantityTypeIdentifierActiveEnergyBurned", "100", unit: "kcal", start: "2026-03-05 08:00:00 -0500"),
            F.record("HKQuantityTypeIdentifierBasalEnergyBurned", "50", unit: "Cal", start: "2026-03-05 08:00:00 -0500"),
            F.record("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleepCore", unit: "", start: "2026-03-05 23:00:00 -0500", end: "2026-03-06 03:00:00 -0500", source: "Apple Watch"),
            F.record("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleepDeep", unit: "", start: "2026-03-06 03:00:00 -0500", end: "2026-03-06 04:00:00 -0500", source: "Apple Watch"),
            F.record("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAwake", unit: "", start: "2026-03-06 04:00:00 -0500", end: "2026-03-06 04:10:00 -0500", source: "Apple Watch"),
            F.record("HKQuantityTypeIdentifierDietarySodium", "1.2", unit: "g", start: "2026-03-05 12:00:00 -0500"),
            F.record("HKQuantityTypeIdentifierDietaryWater", "0.5", unit: "L", start: "2026-03-05 12:00:00 -0500"),
            F.record("HKQuantityTypeIdentifierEnvironmentalAudioExposure", "70", unit: "dBASPL", start: "2026-03-05 12:00:00 -0500"),
        ].joined()
        let queue = try makeQueue()
        let summary = try importing(F.export(body), into: queue)
        XCTAssertNil(summary.error)
        XCTAssertEqual(summary.queuedByRecordType, ["diabetes": 2, "biometrics": 4, "weight": 1, "routine": 3, "sleep": 1, "nutrition": 1])
        XCTAssertEqual(summary.skipped["values refused as impossible"], 1, "\(summary.skipped)")
        XCTAssertEqual(summary.skipped["copies of correlated samples"], 2, "\(summary.skipped)")
        // A type no set subscribes to is passed over as not subscribed, and counted as read.
        XCTAssertEqual(summary.skipped["not subscribed"], 1)
        XCTAssertEqual(summary.elementsByType["HKQuantityTypeIdentifierEnvironmentalAudioExposure"], 1)

        let stored = try records(queue)
        let glucose = stored.compactMap(\.diabetes).sorted { $0.header.timestamp < $1.header.timestamp }
        XCTAssertEqual(glucose.map(\.bloodGlucose), [99, 99])  // 5.5 mmol/L × 18
        XCTAssertEqual(glucose.map(\.relationshipToMeal), [.before, .after])
        XCTAssertEqual(glucose.map(\.header.validated), [false, true])  // typed in, then from a device
        let biometrics = stored.compactMap(\.biometrics)
        XCTAssertEqual(biometrics.compactMap(\.spo2), [97])
        XCTAssertEqual(try XCTUnwrap(biometrics.compactMap(\.temperature).first), 37, accuracy: 1e-9)
        XCTAssertEqual(biometrics.compactMap(\.systolic), [128])
        let pressure = try XCTUnwrap(biometrics.first { $0.systolic != nil })
        XCTAssertEqual(pressure.header.originalSource, "Omron")
        // The cuff's heart rate of the same moment is the reading's pulse (and stays a sample of its own).
        XCTAssertEqual(pressure.restingHeartRate, 66)
        XCTAssertEqual(biometrics.filter { $0.systolic == nil && $0.restingHeartRate == 66 }.count, 1)
        let weight = try XCTUnwrap(stored.compactMap(\.weight).first)
        XCTAssertEqual(weight.weight, 165 * 0.45359237, accuracy: 1e-9)
        // The scale's BMI and body fat of the same moment are in the same record; a height alone makes none.
        XCTAssertEqual(weight.bmi, 24.4)
        XCTAssertEqual(weight.fatPercent, 22.4)
        XCTAssertNil(weight.height)
        XCTAssertEqual(summary.skipped["body composition without a weight"], 1)
        let routine = stored.compactMap(\.routine).sorted { ($0.header.timestampText, $0.header.originalSource ?? "") < ($1.header.timestampText, $1.header.originalSource ?? "") }
        // Per day and source: iPhone's 5 March, the watch's 5 March, iPhone's 6 March.
        XCTAssertEqual(routine.map(\.steps), [2000, 500, 300])
        XCTAssertEqual(routine.first?.distance, 1500)
        XCTAssertEqual(routine.first?.caloriesBurned, 150)
        // The routine record has no field for hours stood or mindful minutes: they are in its extras.
        XCTAssertEqual(routine[1].header.extras["stand_hours"], "2")
        XCTAssertEqual(routine[1].header.extras["mindful_minutes"], "10.5")
        XCTAssertNil(routine[0].header.extras["stand_hours"])
        XCTAssertNil(routine[0].header.extras["mindful_minutes"])
        let night = try XCTUnwrap(stored.compactMap(\.sleep).first)
        XCTAssertEqual(night.totalSleep, 5 * 3600)
        XCTAssertEqual(night.deep, 3600)
        XCTAssertEqual(night.light, 4 * 3600)
        XCTAssertEqual(night.awake, 600)
        XCTAssertTrue(night.header.timestampText.hasPrefix("2026-03-06T04:10:00"))
        let food = try XCTUnwrap(stored.compactMap(\.nutrition).first)
        XCTAssertEqual(food.sodium, 1200)
        XCTAssertEqual(food.water, 500)

        // Only what is subscribed is imported.
        let diabetesOnly = try makeQueue()
        let limited = try importing(F.export(body), into: diabetesOnly, subscribed: Set(HealthSubscriptionSet.diabetes.identifiers))
        XCTAssertEqual(limited.queuedByRecordType, ["diabetes": 2])
        XCTAssertGreaterThan(limited.skipped["not subscribed"] ?? 0, 10)
    }

    func testAFileBrokenInTheMiddleKeepsWhatCameBeforeAndTheRepairedFileAddsOnlyTheRest() throws {
        let before = (0..<5).map { F.record("HKQuantityTypeIdentifierHeartRate", "\(60 + $0)", unit: "count/min", start: "2026-03-05 08:0\($0):00 -0500") }.joined()
        let after = (0..<4).map { F.record("HKQuantityTypeIdentifierHeartRate", "\(70 + $0)", unit: "count/min", start: "2026-03-05 09:0\($0):00 -0500") }.joined()
        let broken = F.export(before + " <Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"1\n <Oops></Record>\n" + after)
        let queue = try makeQueue()
        let first = try importing(broken, into: queue)
        let error = try XCTUnwrap(first.error)
        guard case .malformedXML(let line, _) = error else { return XCTFail("\(error)") }
        // The broken record starts after the declaration, DTD (3 lines), root, ExportDate and 5 records.
        XCTAssertGreaterThanOrEqual(line, 10)
        XCTAssertEqual(first.queuedByRecordType, ["biometrics": 5])

        let repaired = try importing(F.export(before + after), into: queue)
        XCTAssertNil(repaired.error)
        XCTAssertEqual(repaired.queuedByRecordType, ["biometrics": 4])
        XCTAssertEqual(repaired.alreadyQueued, 5)
        XCTAssertEqual(try queue.count(), 9)
    }

    func testTheKnownMalformationsAreReadAnyway() throws {
        let record = F.record("HKQuantityTypeIdentifierHeartRate", "61", unit: "count/min", start: "2026-03-05 08:00:00 -0500")
        // iOS 16: a DTD a conforming parser rejects, and a vertical tab in an attribute.
        let brokenDTD = "<!DOCTYPE HealthData [\n<!ATTLIST ExportDate\n  value CDATA #REQUIRED\n>\n<!ATTLIST Record type CDATA #REQUIRED unit CDATA\n]>\n"
        let withTab = record.replacingOccurrences(of: "sourceName=\"iPhone\"", with: "sourceName=\"i\u{0B}Phone\"")
        let queue = try makeQueue()
        let summary = try importing(F.export(withTab, doctype: brokenDTD), into: queue)
        XCTAssertNil(summary.error)
        XCTAssertEqual(summary.queuedByRecordType, ["biometrics": 1])
        XCTAssertEqual(summary.replacedCharacters, 1)
        XCTAssertEqual(try records(queue).first?.header.originalSource, "i Phone")
    }

    func testTheXMLIsFoundInAZipByItsContentNotItsName() throws {
        let folder = try F.folder(removedAfter: self)
        let zip = folder.appendingPathComponent("export.zip")
        let xml = F.export(F.record("HKQuantityTypeIdentifierHeartRate", "61", unit: "count/min", start: "2026-03-05 08:00:00 -0500"))
        let cda = Data("<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"></ClinicalDocument>\n".utf8)
        try F.zip(zip, [("apple_health_export/export_cda.xml", cda), ("apple_health_export/exportar.xml", xml),
                        ("apple_health_export/workout-routes/route_2026-01-02_7.41am.gpx", Data("<gpx/>".utf8))])
        let located = try HealthExportLocator.locate(zip.path)
        XCTAssertTrue(located.name.hasSuffix("apple_health_export/exportar.xml"), located.name)
        let summary = try HealthImporter(queue: try makeQueue(), owner: nil, subscribed: all).run(located)
        XCTAssertEqual(summary.queuedByRecordType, ["biometrics": 1])
    }
}

/// A later export repeats everything before it: only what is new is queued.
final class HealthAnchorTests: XCTestCase {
    typealias F = HealthFixture
    private let all = Set(HealthSubscriptionSet.allCases.flatMap(\.identifiers))

    private func heartRate(_ value: Int, at time: String, created: String? = nil) -> String {
        F.record("HKQuantityTypeIdentifierHeartRate", "\(value)", unit: "count/min", start: time)
            .replacingOccurrences(of: "creationDate=\"\(time)\"", with: "creationDate=\"\(created ?? time)\"")
    }

    private func steps(_ count: Int, at time: String) -> String {
        F.record("HKQuantityTypeIdentifierStepCount", "\(count)", unit: "count", start: time)
    }

    func testAnOverlappingExportQueuesOnlyNewSamplesAndTheChangedDaysTotal() throws {
        let folder = try F.folder(removedAfter: self)
        let queue = try UploadQueue(directory: DataDirectory(path: folder.appendingPathComponent("data").path))
        let first = [
            heartRate(60, at: "2026-03-05 08:00:00 -0500"), heartRate(61, at: "2026-03-06 08:00:00 -0500"),
            steps(1000, at: "2026-03-05 08:00:00 -0500"), steps(500, at: "2026-03-06 08:00:00 -0500"),
        ]
        let second = first + [
            heartRate(62, at: "2026-03-07 08:00:00 -0500"),
            // Synced late: measured on the 5th, saved to HealthKit on the 7th.
            heartRate(59, at: "2026-03-05 09:00:00 -0500", created: "2026-03-07 10:00:00 -0500"),
            steps(700, at: "2026-03-06 20:00:00 -0500"), steps(300, at: "2026-03-07 08:00:00 -0500"),
        ]
        func run(_ body: [String], anchors: HealthAnchors.Stored) throws -> HealthImportSummary {
            let file = folder.appendingPathComponent("export-\(body.count).xml")
            try F.export(body.joined()).write(to: file)
            return try HealthImporter(queue: queue, owner: nil, subscribed: all, anchors: anchors).run(HealthExportLocator.locate(file.path))
        }
        let one = try run(first, anchors: .init())
        XCTAssertEqual(one.queuedByRecordType, ["biometrics": 2, "routine": 2])
        // Uploaded: the queue is empty again, so only the anchors can keep the second import from repeating it.
        XCTAssertEqual(try queue.purge(), 4)

        let two = try run(second, anchors: one.anchors)
        // The 7th's pulse, the late-synced one, the 6th's changed total and the 7th's total.
        XCTAssertEqual(two.queuedByRecordType, ["biometrics": 2, "routine": 2])
        let stored = try queue.pending().map { try RecordJSON.decode($0.json) }
        XCTAssertEqual(Set(stored.compactMap(\.biometrics).compactMap(\.restingHeartRate)), [62, 59])
        XCTAssertEqual(Set(stored.compactMap(\.routine).compactMap(\.steps)), [1200, 300])
        XCTAssertEqual(try queue.purge(), 4)

        // The same export again: nothing at all.
        let three = try run(second, anchors: two.anchors)
        XCTAssertEqual(three.queued, 0)
        XCTAssertEqual(three.skipped["delivered before"], 8)
    }
}

/// A day's total that grows while its older version still waits in the queue (no session: nothing uploaded).
final class HealthPendingTotalTests: XCTestCase {
    typealias F = HealthFixture

    func testAGrownTotalReplacesTheWaitingOneAndAnUnchangedOneIsLeftAlone() throws {
        let folder = try F.folder(removedAfter: self)
        let queue = try UploadQueue(directory: DataDirectory(path: folder.appendingPathComponent("data").path))
        let all = Set(HealthSubscriptionSet.allCases.flatMap(\.identifiers))
        let morning = F.record("HKQuantityTypeIdentifierStepCount", "1000", unit: "count", start: "2026-03-05 08:00:00 -0500")
        let evening = F.record("HKQuantityTypeIdentifierStepCount", "700", unit: "count", start: "2026-03-05 20:00:00 -0500")
        func run(_ body: String, anchors: HealthAnchors.Stored) throws -> HealthImportSummary {
            let file = folder.appendingPathComponent("export-\(UUID().uuidString).xml")
            try F.export(body).write(to: file)
            return try HealthImporter(queue: queue, owner: nil, subscribed: all, anchors: anchors).run(HealthExportLocator.locate(file.path))
        }
        let first = try run(morning, anchors: .init())
        let second = try run(morning + evening, anchors: first.anchors)
        XCTAssertEqual(second.queuedByRecordType, ["routine": 1])
        let waiting = try queue.pending().map { try RecordJSON.decode($0.json) }
        XCTAssertEqual(waiting.compactMap(\.routine).map(\.steps), [1700])
        // Run again unchanged: the waiting total is the same, nothing is rewritten.
        let third = try run(morning + evening, anchors: .init())
        XCTAssertEqual(third.queued, 0)
        XCTAssertEqual(third.alreadyQueued, 1)
    }
}
