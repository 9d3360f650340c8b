/// A stage of the reader that could not run: a trained network that fails on its input, say. It is an error
/// the user sees with its reason (`vitalsnap batch` reports the photo as an error, `vitalsnap read` stops),
/// never a photo that seems to show nothing.
public struct ReaderStageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stage, in words: "the trained line detector".
    public var stage: String
    /// Why it could not run (the underlying error's description).
    public var reason: String

    public init(stage: String, reason: String) {
        self.stage = stage
        self.reason = reason
    }

    public var description: String { "\(stage) could not run: \(reason)" }
}
