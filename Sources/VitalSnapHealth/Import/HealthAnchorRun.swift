/// The anchor of the type an import is in the middle of: an export lists its samples type by type, so the
/// anchors are looked up once per run of a type and the run's newest creation is written back when the type
/// changes, where each element hashed its type twice.
struct HealthAnchorRun {
    private var type: String?
    /// The last import's anchor for the type; the newest creation seen of it so far.
    private var delivered: Int64?
    private var newest = Int64.min

    /// Whether an element of `type` created at `created` was delivered before, by the anchors of an earlier
    /// import (`earlier`); the new anchors (`next`) move forward when the run settles.
    mutating func deliveredBefore(_ type: String, created: Int64, earlier: HealthAnchors.Stored?, next: inout HealthAnchors.Stored) -> Bool {
        if type != self.type {
            settle(into: &next)
            self.type = type
            delivered = earlier?.created[type]
            newest = next.created[type] ?? Int64.min
        }
        if created > newest { newest = created }
        guard let delivered else { return false }
        return created <= delivered
    }

    /// Writes the run's newest creation into `next`.
    func settle(into next: inout HealthAnchors.Stored) {
        if let type, newest > next.created[type] ?? Int64.min { next.created[type] = newest }
    }
}
