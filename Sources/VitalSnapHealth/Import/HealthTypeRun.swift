/// What an import works out per sample type, once per run of samples of one type rather than per sample: an
/// export lists its samples type by type, and the builder hands out one String per run, so telling that the
/// type did not change is a pointer comparison, where each lookup by type hashes its forty characters.
struct HealthTypeRun {
    private(set) var type = ""
    private(set) var isSubscribed = false
    /// A sample that makes a record of its own (not one summed into a day's total).
    private(set) var isPoint = false

    /// Enters the run of `type` (staying in it when it is the same).
    mutating func enter(_ type: String, subscribed: Set<String>) {
        guard type != self.type else { return }
        self.type = type
        isSubscribed = subscribed.contains(type)
        isPoint = HealthSampleKind.byIdentifier[type].map { !HealthDailyTotals.isTotal($0) } ?? false
    }
}
