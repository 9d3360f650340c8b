import Foundation
import Logging

/// The pulse of a blood pressure reading: a heart-rate sample with the same start and source (a cuff writes both).
/// Apple's export lists samples by type, heart rates long before the correlations, and holding every heart-rate
/// sample until the end would break the memory bound; so once the readings are known, the export is read again
/// for heart rates only, stopping after their part of the file.
enum HealthPulseFinder {
    struct Key: Hashable {
        var seconds: Int64
        var source: String

        init(_ correlation: HealthCorrelation) {
            seconds = correlation.startDate.seconds
            source = correlation.sourceName
        }

        init(_ sample: HealthSample) {
            seconds = sample.startDate.seconds
            source = sample.sourceName
        }
    }

    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// Beats per minute by reading; readings with no heart rate of their moment are absent. A problem reading the
    /// export again only leaves the pulses out (the first pass read it whole).
    static func pulses(at keys: Set<Key>, in located: HealthExportLocator.Located, logger: Logger) -> [Key: Double] {
        var found: [Key: Double] = [:]
        do throws(HealthImportError) {
            let reader = try HealthXMLReader(ExportSanitizer(try located.open()))
            var inHeartRates = false
            while let element = try reader.next(), found.count < keys.count {
                guard case .sample(let sample) = element else {
                    if inHeartRates { break }
                    continue
                }
                guard sample.type == heartRate else {
                    // Past the heart rates' part of the file: nothing more to find.
                    if inHeartRates { break }
                    continue
                }
                inHeartRates = true
                let key = Key(sample)
                if keys.contains(key), sample.unit == "count/min", let value = sample.value.flatMap(Double.init) {
                    found[key] = value
                }
            }
        } catch {
            logger.debug("pulses of blood pressure readings left out: \(error)")
        }
        return found
    }
}
