/// Turns a stream of per-frame readings of one display into one final reading, once the frames agree.
///
/// Feed it every frame with `add(_:glare:timestamp:)`; each call returns a `ConvergenceUpdate` with the frame's
/// partial result, the progress towards convergence and, from the converging frame on, the final reading. The
/// rules are `ConvergencePolicy`'s: only trustworthy frames vote, `requiredVotes` agreeing votes within the
/// last `window` frames converge, and any disagreeing vote in the window blocks convergence. Once converged it
/// stays converged (later frames are still reported, but the final reading does not change) until `reset()`.
///
/// A display showing a word (`LO`, `HI`, `Err`) converges on the word: the final outcome is then `.word`, never
/// a number, and a word vote and a value vote always disagree.
///
/// The last `window` frames are kept in a fixed-capacity ring buffer that holds only what the readings already
/// carry (their value arrays and word strings), so in steady state a frame allocates nothing beyond its
/// `Reading`. (The per-field best guess is built in a reused buffer only when no single vote holds every
/// field's best value; that buffer is copied only if the previous update's guess is still held.)
public struct ReadingConverger: Sendable {
    public let policy: ConvergencePolicy
    /// When set, value frames must hold exactly its measurement fields, in order, with plausible values.
    public let peripheral: PeripheralDefinition?
    /// The final reading, once converged.
    public private(set) var final: ConvergedReading?
    /// Frames added since start or the last `reset()`.
    public private(set) var frameCount = 0

    private struct Slot: Sendable {
        var isVote: Bool
        var values: [FieldValue]
        var word: String?
        var confidence: Double
    }

    private var slots: FixedRingBuffer<Slot>
    private var firstTimestamp: Double?
    private let measurementFields: [FieldDefinition]
    private var scratch: [FieldValue] = []

    public init(policy: ConvergencePolicy = .default, peripheral: PeripheralDefinition? = nil) {
        precondition(policy.requiredVotes >= 1 && policy.window >= policy.requiredVotes, "invalid convergence policy")
        self.policy = policy
        self.peripheral = peripheral
        measurementFields = peripheral?.measurementFields ?? []
        slots = FixedRingBuffer(capacity: policy.window)
        scratch.reserveCapacity(max(4, measurementFields.count))
    }

    public var isConverged: Bool { final != nil }

    /// Forgets every frame and the final reading: the next frame is frame 1 again.
    public mutating func reset() {
        slots.removeAll()
        final = nil
        frameCount = 0
        firstTimestamp = nil
    }

    /// Adds one frame: its reading, the glare found on it and its capture time in seconds.
    public mutating func add(_ reading: Reading, glare: GlareReport, timestamp: Double) -> ConvergenceUpdate {
        frameCount += 1
        if firstTimestamp == nil { firstTimestamp = timestamp }

        let status = classify(reading, glare: glare)
        var slot = Slot(isVote: status == .vote, values: [], word: nil, confidence: reading.confidence)
        if slot.isVote {
            switch reading.outcome {
            case .values(let v): slot.values = v
            case .word(let w): slot.word = w
            case .none: slot.isVote = false  // not reached: classify never makes these votes
            }
        }
        slots.append(slot)

        // The window: votes, the newest vote, and whether every vote agrees with it.
        var votes = 0, agreeing = 0, run = 0
        var blocked = false, runOpen = true
        var newest: Int?
        var lowest = Double.infinity
        for i in stride(from: slots.count - 1, through: 0, by: -1) where slots[i].isVote {
            votes += 1
            guard let n = newest else {
                newest = i
                agreeing = 1
                run = 1
                lowest = slots[i].confidence
                continue
            }
            if Self.agree(slots[i], slots[n]) {
                agreeing += 1
                if runOpen { run += 1 }
                lowest = min(lowest, slots[i].confidence)
            } else {
                blocked = true
                runOpen = false
            }
        }

        if final == nil, !blocked, let n = newest, votes >= policy.requiredVotes {
            let newestSlot = slots[n]
            let outcome: ConvergedOutcome = newestSlot.word.map { .word($0) } ?? .values(newestSlot.values)
            final = ConvergedReading(
                outcome: outcome, confidence: lowest, votes: votes, framesToConvergence: frameCount,
                elapsed: max(0, timestamp - (firstTimestamp ?? timestamp)), timestamp: timestamp)
        }

        let k = Double(policy.requiredVotes)
        let progress = final != nil ? 1 : min(Double(run), k - 1) / k
        let partial = ConvergencePartial(
            recognizedText: Self.text(of: reading), glare: glare, status: status,
            bestGuess: bestGuess(), bestWord: bestWord())
        return ConvergenceUpdate(
            frameNumber: frameCount, timestamp: timestamp, partial: partial, progress: progress,
            votesInWindow: votes, agreeingVotes: agreeing, isBlocked: blocked, final: final)
    }

    // MARK: - Which frames vote

    /// How a frame counts. Glare over the digits comes first: it is what the user can fix.
    public func classify(_ reading: Reading, glare: GlareReport) -> ConvergenceFrameStatus {
        if glare.coversDigits { return .glareOverDigits }
        switch reading.outcome {
        case .none(let why):
            return .unreadable(why.message)
        case .word:
            return reading.confidence >= policy.minimumConfidence ? .vote : .lowConfidence
        case .values(let values):
            if values.isEmpty { return .incomplete }
            guard reading.confidence >= policy.minimumConfidence else { return .lowConfidence }
            // Index loops: they stay free of allocations even in unoptimized builds.
            for i in values.indices where !(values[i].confidence >= policy.minimumConfidence) { return .lowConfidence }
            for i in values.indices where !values[i].value.isFinite { return .implausible(values[i].field) }
            if peripheral != nil { return plausibility(of: values) }
            return .vote
        }
    }

    private func plausibility(of values: [FieldValue]) -> ConvergenceFrameStatus {
        guard values.count == measurementFields.count else { return .incomplete }
        var systolic: Double?, diastolic: Double?
        for i in values.indices {
            let value = values[i], field = measurementFields[i]
            guard value.field == field.name else { return .incomplete }
            var variant: UnitVariant?
            for u in field.units.indices where field.units[u].unit == value.unit {
                variant = field.units[u]
                break
            }
            guard let variant else { return .implausible(value.field) }
            if let decimals = variant.decimals, decimals != value.decimals { return .implausible(value.field) }
            if let range = variant.plausibleRange, !range.contains(value.value) { return .implausible(value.field) }
            if value.field == .systolic { systolic = value.value }
            if value.field == .diastolic { diastolic = value.value }
        }
        if let systolic, let diastolic, systolic <= diastolic { return .implausible(.systolic) }
        return .vote
    }

    /// Exact agreement: the same word, or the same fields in the same order with the same text and unit.
    private static func agree(_ a: Slot, _ b: Slot) -> Bool {
        if a.word != nil || b.word != nil { return a.word == b.word }
        guard a.values.count == b.values.count else { return false }
        for i in a.values.indices {
            let x = a.values[i], y = b.values[i]
            guard x.field == y.field, x.text == y.text, x.unit == y.unit else { return false }
        }
        return true
    }

    private static func text(of reading: Reading) -> String {
        if !reading.recognizedText.isEmpty || reading.lines.isEmpty { return reading.recognizedText }
        return reading.lines.map(\.text).joined(separator: "\n")
    }

    // MARK: - Best guesses

    /// Index into a slot's values of the value for `field`.
    private static func index(of field: FieldName, in values: [FieldValue]) -> Int? {
        for i in values.indices where values[i].field == field { return i }
        return nil
    }

    private mutating func bestGuess() -> [FieldValue] {
        var reference: Int?
        for i in stride(from: slots.count - 1, through: 0, by: -1) where slots[i].isVote && slots[i].word == nil {
            reference = i
            break
        }
        guard let reference else { return [] }
        let fields = slots[reference].values
        // Per field, the slot holding the value most votes agree on (the newest on a tie).
        var allFromReference = true
        for f in fields.indices where bestSlot(for: fields[f].field) != reference {
            allFromReference = false
            break
        }
        if allFromReference { return fields }
        scratch.removeAll(keepingCapacity: true)
        for f in fields.indices {
            let s = bestSlot(for: fields[f].field)
            if s >= 0, let i = Self.index(of: fields[f].field, in: slots[s].values) { scratch.append(slots[s].values[i]) }
        }
        return scratch
    }

    /// The newest value-voting slot whose value of `field` has the most votes in the window.
    private func bestSlot(for field: FieldName) -> Int {
        var best = -1, bestCount = 0
        for i in stride(from: slots.count - 1, through: 0, by: -1) where slots[i].isVote && slots[i].word == nil {
            guard let vi = Self.index(of: field, in: slots[i].values) else { continue }
            let v = slots[i].values[vi]
            var count = 0
            for j in 0..<slots.count where slots[j].isVote && slots[j].word == nil {
                if let vj = Self.index(of: field, in: slots[j].values) {
                    let w = slots[j].values[vj]
                    if w.text == v.text && w.unit == v.unit { count += 1 }
                }
            }
            if count > bestCount {
                best = i
                bestCount = count
            }
        }
        return best
    }

    private func bestWord() -> String? {
        var best: String?, bestCount = 0
        for i in stride(from: slots.count - 1, through: 0, by: -1) {
            guard slots[i].isVote, let word = slots[i].word else { continue }
            var count = 0
            for j in 0..<slots.count where slots[j].isVote && slots[j].word == word { count += 1 }
            if count > bestCount {
                best = word
                bestCount = count
            }
        }
        return best
    }
}
