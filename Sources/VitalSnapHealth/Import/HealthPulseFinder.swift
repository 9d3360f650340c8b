/// The pulse of a blood pressure reading: a heart-rate sample with the same start and source (a cuff app writes
/// both). Apple's export lists samples by type, heart rates long before the correlations, so heart rates are
/// remembered as they pass, per source, but only for sources that write few of them: a watch writes hundreds of
/// thousands and is never a cuff, and remembering those would break the memory bound.
final class HealthPulseFinder {
    struct Key: Hashable {
        var seconds: Int64
        var source: String

        init(_ correlation: HealthCorrelation) {
            seconds = correlation.startDate.seconds
            source = correlation.sourceName
        }
    }

    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    /// Heart rates remembered per source at most: years of a cuff's readings several times a day. A source with
    /// more is a continuous monitor; its heart rates are forgotten.
    static let largestCuffSource = 20_000

    private var bySource: [String: [Int64: Double]] = [:]
    private var continuous: Set<String> = []

    /// Remembers a heart-rate sample (others are ignored).
    func note(_ sample: HealthSample) {
        guard sample.type == Self.heartRate, sample.unit == "count/min", !continuous.contains(sample.sourceName),
            let value = sample.value.flatMap(Double.init)
        else { return }
        // In place: a copy of the source's table per sample would cost its size each time.
        bySource[sample.sourceName, default: [:]][sample.startDate.seconds] = value
        if bySource[sample.sourceName]?.count ?? 0 > Self.largestCuffSource {
            bySource[sample.sourceName] = nil
            continuous.insert(sample.sourceName)
        }
    }

    /// The pulse of the reading at `key`, when its source wrote a heart rate at that moment.
    func pulse(at key: Key) -> Double? {
        bySource[key.source]?[key.seconds]
    }
}
