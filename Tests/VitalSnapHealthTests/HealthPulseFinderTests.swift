import VitalSnapRecords
import XCTest

@testable import VitalSnapHealth

/// Heart rates are remembered for a cuff's source, not for a watch's stream.
final class HealthPulseFinderTests: XCTestCase {
    private func sample(_ value: String, at seconds: Int64, source: String, type: String = HealthPulseFinder.heartRate, unit: String = "count/min")
        -> HealthSample
    {
        let date = HealthDate(seconds: seconds, offset: .utc)
        return HealthSample(
            type: type, unit: unit, value: value, sourceName: source, device: nil, startDate: date, endDate: date, creationDate: date,
            metadata: [])
    }

    private func heartRate(_ bpm: Int, at seconds: Int64, source: String) -> HealthPulseFinder.HeartRate {
        HealthPulseFinder.HeartRate(sample("\(bpm)", at: seconds, source: source))!
    }

    private func reading(at seconds: Int64, source: String) -> HealthPulseFinder.Key {
        let date = HealthDate(seconds: seconds, offset: .utc)
        return HealthPulseFinder.Key(HealthCorrelation(
            type: "HKCorrelationTypeIdentifierBloodPressure", sourceName: source, device: nil, startDate: date, endDate: date,
            creationDate: date, samples: [], metadata: []))
    }

    func testACuffsHeartRateIsFoundAndAWatchsStreamIsForgotten() {
        let finder = HealthPulseFinder()
        finder.note(heartRate(66, at: 1000, source: "Omron"))
        for second in 0...Int64(HealthPulseFinder.largestCuffSource) { finder.note(heartRate(70, at: second, source: "Watch")) }
        XCTAssertEqual(finder.pulse(at: reading(at: 1000, source: "Omron")), 66)
        XCTAssertNil(finder.pulse(at: reading(at: 1001, source: "Omron")))
        // More heart rates than any cuff writes: a continuous monitor, not remembered (and never a cuff's pulse).
        XCTAssertNil(finder.pulse(at: reading(at: 5, source: "Watch")))
        finder.note(heartRate(71, at: 999_999, source: "Watch"))
        XCTAssertNil(finder.pulse(at: reading(at: 999_999, source: "Watch")))
    }

    func testOnlyHeartRatesInBeatsPerMinuteAreTaken() {
        XCTAssertEqual(HealthPulseFinder.HeartRate(sample("66.5", at: 7, source: "Omron"))?.value, 66.5)
        XCTAssertEqual(HealthPulseFinder.HeartRate(sample("66", at: 7, source: "Omron"))?.seconds, 7)
        XCTAssertNil(HealthPulseFinder.HeartRate(sample("66", at: 7, source: "Omron", unit: "count/s")))
        XCTAssertNil(HealthPulseFinder.HeartRate(sample("sixty", at: 7, source: "Omron")))
        XCTAssertNil(HealthPulseFinder.HeartRate(sample("66", at: 7, source: "Omron", type: "HKQuantityTypeIdentifierRestingHeartRate")))
    }
}
