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

    /// A heart-rate sample, as much of it as is remembered.
    struct HeartRate {
        var seconds: Int64
        var source: String
        var value: Double

        /// Nil for any other sample, or one whose value is not a number of beats per minute.
        init?(_ sample: HealthSample) {
            guard sample.type == HealthPulseFinder.heartRate, sample.unit == "count/min", let value = sample.value.flatMap(Double.init) else {
                return nil
            }
            seconds = sample.startDate.seconds
            source = sample.sourceName
            self.value = value
        }
    }

    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    /// Heart rates remembered per source at most: years of a cuff's readings several times a day. A source with
    /// more is a continuous monitor; its heart rates are forgotten.
    static let largestCuffSource = 20_000

    private var bySource: [String: [Int64: Double]] = [:]
    private var continuous: Set<String> = []
    /// The last continuous source seen: a watch's heart rates come in runs of hundreds of thousands, and the
    /// same String is compared by its bits where the set hashes its characters.
    private var lastContinuous: String?

    /// Remembers a heart rate.
    func note(_ rate: HeartRate) {
        if rate.source == lastContinuous { return }
        if continuous.contains(rate.source) {
            lastContinuous = rate.source
            return
        }
        // In place: a copy of the source's table per sample would cost its size each time.
        bySource[rate.source, default: [:]][rate.seconds] = rate.value
        if bySource[rate.source]?.count ?? 0 > Self.largestCuffSource {
            bySource[rate.source] = nil
            continuous.insert(rate.source)
        }
    }

    /// The pulse of the reading at `key`, when its source wrote a heart rate at that moment.
    func pulse(at key: Key) -> Double? {
        bySource[key.source]?[key.seconds]
    }
}
