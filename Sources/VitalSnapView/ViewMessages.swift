import VitalSnapImaging

/// What a capture view shows, as the JSON messages its page receives (each with a `type`).

/// What is being read: sent once a page connects.
public struct ViewSession: Codable, Sendable, Hashable {
    public var type = "session"
    /// `Any (glucose meter) (peripheral 9)`.
    public var peripheral: String
    /// The peripheral's own instructions to the person holding the device.
    public var instructions: String
    /// Agreeing frames needed for a steady reading.
    public var requiredVotes: Int
    /// Where the frames come from (a device or the replayed file).
    public var source: String

    public init(peripheral: String, instructions: String, requiredVotes: Int, source: String) {
        self.peripheral = peripheral
        self.instructions = instructions
        self.requiredVotes = requiredVotes
        self.source = source
    }
}

/// One frame read: the partial reading and how it counted.
public struct ViewFrameState: Codable, Sendable, Hashable {
    public var type = "frame"
    /// The frame's number in its source (the binary frame that goes with it carries the same).
    public var sequence: Int
    public var width: Int
    public var height: Int
    /// Every line read in the frame, top to bottom, a line break between them (`?` for an unreadable character).
    public var partial: String
    /// The value (or word) most recent frames agree on so far, with its unit; empty before any.
    public var guess: String
    /// Frames agreeing with the newest vote, and how many a steady reading needs.
    public var votes: Int
    public var requiredVotes: Int
    /// Why this frame did not count, in words; nil when it did.
    public var reason: String?
    /// Glare regions in frame pixels, and what to do about them.
    public var glare: [PixelRect]
    public var glareAdvice: String?
    /// Frames the reader read per second lately.
    public var readRate: Double

    public init(
        sequence: Int, width: Int, height: Int, partial: String, guess: String, votes: Int, requiredVotes: Int,
        reason: String?, glare: [PixelRect], glareAdvice: String?, readRate: Double
    ) {
        self.sequence = sequence
        self.width = width
        self.height = height
        self.partial = partial
        self.guess = guess
        self.votes = votes
        self.requiredVotes = requiredVotes
        self.reason = reason
        self.glare = glare
        self.glareAdvice = glareAdvice
        self.readRate = readRate
    }
}

/// The steady reading, for the person to accept, correct, retake or cancel.
public struct ViewConverged: Codable, Sendable, Hashable {
    public var type = "converged"
    /// `43` or `120/80/72`, as shown.
    public var value: String
    /// `mg/dL`, or `mmHg / mmHg / bpm`.
    public var unit: String
    /// What an edit must look like: `one number` or `3 numbers separated by /`.
    public var editHint: String
    /// Bumped with every new steady reading, so the page fetches the new crop (`crop.png?n=<this>`).
    public var number: Int

    public init(value: String, unit: String, editHint: String, number: Int) {
        self.value = value
        self.unit = unit
        self.editHint = editHint
        self.number = number
    }
}

/// A word for the page that changes nothing else: an edit refused, and why.
public struct ViewNotice: Codable, Sendable, Hashable {
    public var type = "notice"
    public var message: String

    public init(message: String) { self.message = message }
}

/// How the reading ended: what happened, what to do, and the command's exit status.
public struct ViewFinished: Codable, Sendable, Hashable {
    public var type = "finished"
    /// `queued`, `read`, `cancelled`, `word`, `no-reading`, `timeout` or `error`.
    public var outcome: String
    public var message: String
    /// What to do next, where there is something to do.
    public var advice: String?
    public var exitStatus: Int32

    public init(outcome: String, message: String, advice: String? = nil, exitStatus: Int32) {
        self.outcome = outcome
        self.message = message
        self.advice = advice
        self.exitStatus = exitStatus
    }
}
