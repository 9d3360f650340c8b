/// When a stream of per-frame readings may be turned into one final reading.
///
/// A frame *votes* when it is trustworthy on its own: its outcome is `.values` (every measurement field read
/// and plausible) or `.word` (`LO`, `HI`, `Err`), its confidence and that of every field is at least
/// `minimumConfidence`, no glare covers its digits, and (when the converger knows the peripheral) its values
/// pass the peripheral's field, unit, decimals and range checks. Frames that do not vote are reported but
/// neither count towards nor block convergence.
///
/// The converger converges when the last `window` frames hold at least `requiredVotes` votes, and *every*
/// vote in those frames agrees exactly with the others (same fields, same text as shown, same unit; or the
/// same word). One disagreeing vote anywhere in the window blocks convergence until the window has slid past
/// it. So it never reports a value the trustworthy frames disagree about.
///
/// Choosing `requiredVotes`: a display that changes between readings every `p` frames shows `p` identical
/// frames before the first change, and no rule that looks only at past frames can tell those from a steady
/// display. A change every `p` frames never converges when `requiredVotes > p`: any `requiredVotes` equal
/// votes then span a run of the other value, which sits in the window between them. The default of 4 keeps
/// a display that alternates every 3 frames (`Samples/clips/alternate-*`) from converging, while a steady,
/// clearly read display at 30 frames per second converges after 4 frames (about 130 ms).
public struct ConvergencePolicy: Sendable, Hashable {
    /// Agreeing votes needed (K).
    public var requiredVotes: Int
    /// How many of the most recent frames, voting or not, are considered (N).
    public var window: Int
    /// A frame votes only when its reading's confidence, and every field's, is at least this.
    public var minimumConfidence: Double

    public init(requiredVotes: Int = 4, window: Int = 8, minimumConfidence: Double = 0.5) {
        precondition(requiredVotes >= 1, "convergence needs at least one vote")
        precondition(window >= requiredVotes, "the window must be able to hold the required votes")
        self.requiredVotes = requiredVotes
        self.window = window
        self.minimumConfidence = minimumConfidence
    }

    public static let `default` = ConvergencePolicy()
}
