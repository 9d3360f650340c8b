import Foundation

/// How hard the uploader tries before leaving a record for the next run.
public struct UploadPolicy: Sendable, Hashable {
    /// Per HTTP request: a server slower than this counts as a failed attempt.
    public var requestTimeout: TimeInterval = 30
    /// The first retry waits about this long; each later one twice as long, up to `maximumDelay`.
    public var initialDelay: TimeInterval = 0.5
    public var maximumDelay: TimeInterval = 60
    /// Failed attempts on one record in one run before the run stops (the record stays first in the queue).
    public var maximumAttempts = 6

    public init(requestTimeout: TimeInterval = 30, initialDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 60, maximumAttempts: Int = 6) {
        self.requestTimeout = requestTimeout
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// The wait before retry number `attempt` (from 1): exponential, with "equal jitter" (half fixed, half
    /// random) so that many clients that failed together do not come back together, yet none retries at once.
    public func delay(beforeRetry attempt: Int, using random: inout some RandomNumberGenerator) -> TimeInterval {
        let exponential = min(maximumDelay, initialDelay * pow(2, Double(max(0, attempt - 1))))
        return exponential / 2 + Double.random(in: 0...(exponential / 2), using: &random)
    }
}
