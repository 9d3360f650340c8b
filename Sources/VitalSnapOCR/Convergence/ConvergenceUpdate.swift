/// How the converger counted one frame.
public enum ConvergenceFrameStatus: Sendable, Hashable {
    /// A trustworthy frame: it counts towards convergence (and blocks it if it disagrees with other votes).
    case vote
    /// Glare covers the digits: segments may be hidden, so the frame's digits are not trusted.
    case glareOverDigits
    /// The frame has no reading; the reason is the reading's own (`no digits found`, `a digit is missing`, ...).
    case unreadable(String)
    /// The frame's values or word are less clear than the policy's floor.
    case lowConfidence
    /// The frame's values do not make up the peripheral's measurement fields (one missing, extra or misplaced).
    case incomplete
    /// The field's value is not plausible for the peripheral (unknown unit, wrong decimals, out of range,
    /// systolic not above diastolic, not finite).
    case implausible(FieldName)

    public var isVote: Bool { self == .vote }
}

/// What can be shown while the converger is still collecting evidence.
public struct ConvergencePartial: Sendable {
    /// This frame's recognized lines, top to bottom, separated by newlines (`?` for unreadable characters).
    public var recognizedText: String
    /// This frame's glare.
    public var glare: GlareReport
    /// How this frame was counted.
    public var status: ConvergenceFrameStatus
    /// Per field, the value most votes in the window agree on (on a tie, the newest); empty without value votes.
    /// Fields are those of the newest value vote, in its order.
    public var bestGuess: [FieldValue]
    /// The word most votes in the window agree on, if any voted for a word.
    public var bestWord: String?

    public init(
        recognizedText: String, glare: GlareReport, status: ConvergenceFrameStatus, bestGuess: [FieldValue],
        bestWord: String?
    ) {
        self.recognizedText = recognizedText
        self.glare = glare
        self.status = status
        self.bestGuess = bestGuess
        self.bestWord = bestWord
    }
}

/// What the frames converged on: values, or a word. Never both, and a word never becomes a number.
public enum ConvergedOutcome: Sendable, Hashable {
    case values([FieldValue])
    case word(String)
}

/// The final reading of a stream of frames.
public struct ConvergedReading: Sendable, Hashable {
    public var outcome: ConvergedOutcome
    /// The lowest confidence of the agreeing votes.
    public var confidence: Double
    /// Agreeing votes in the window when it converged (at least the policy's `requiredVotes`).
    public var votes: Int
    /// Frames added since the converger started (or was reset), the converging frame included.
    public var framesToConvergence: Int
    /// Seconds from the first frame since start (or reset) to the converging frame.
    public var elapsed: Double
    /// Timestamp of the converging frame.
    public var timestamp: Double

    public init(
        outcome: ConvergedOutcome, confidence: Double, votes: Int, framesToConvergence: Int, elapsed: Double,
        timestamp: Double
    ) {
        self.outcome = outcome
        self.confidence = confidence
        self.votes = votes
        self.framesToConvergence = framesToConvergence
        self.elapsed = elapsed
        self.timestamp = timestamp
    }

    /// The values (from the newest agreeing vote); empty when the display showed a word.
    public var values: [FieldValue] {
        if case .values(let v) = outcome { return v }
        return []
    }

    /// The word shown (`LO`, `HI`, `Err`); nil for values.
    public var word: String? {
        if case .word(let w) = outcome { return w }
        return nil
    }

    /// `123`, `5.6`, `120/80/72`, or the word (`LO`).
    public var readingString: String {
        switch outcome {
        case .values(let v): v.map(\.text).joined(separator: "/")
        case .word(let w): w
        }
    }
}

/// The converger's answer to one frame.
public struct ConvergenceUpdate: Sendable {
    /// 1 for the first frame since start (or reset).
    public var frameNumber: Int
    public var timestamp: Double
    public var partial: ConvergencePartial
    /// 0...1: 1 once converged; before, the share of the required votes reached by the newest run of agreeing
    /// votes, at most `(K - 1) / K`.
    public var progress: Double
    /// Votes among the frames in the window.
    public var votesInWindow: Int
    /// Votes in the window that agree with the newest vote.
    public var agreeingVotes: Int
    /// Some vote in the window disagrees with another: no convergence until the window slides past it.
    public var isBlocked: Bool
    /// Set from the converging frame on, until `reset()`.
    public var final: ConvergedReading?

    public var isConverged: Bool { final != nil }
}
