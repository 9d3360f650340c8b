/// The summary's count of elements per type, added a run at a time: an export lists its samples type by type,
/// and the preparers hand out one String per run (a known type's literal), so telling that the type did not
/// change is a comparison of the String's bits, where each count by type hashed its forty characters.
struct HealthTypeCounts {
    private var type = ""
    /// Elements of the run not yet added to the counts.
    private var uncounted = 0

    /// Counts an element of `type`.
    mutating func count(_ type: String, into counts: inout [String: Int]) {
        if type != self.type {
            flush(into: &counts)
            self.type = type
        }
        uncounted += 1
    }

    /// Adds the run's uncounted elements to `counts`.
    mutating func flush(into counts: inout [String: Int]) {
        if uncounted > 0 { counts[type, default: 0] += uncounted }
        uncounted = 0
    }
}
