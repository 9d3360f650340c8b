import Foundation

/// What one page's two sides share: whether it may get the next frame, and a word for it alone.
final class PageState: @unchecked Sendable {
    private let lock = NSLock()
    private var frameGranted = true
    private var said: String?

    func grantFrame() { lock.withLock { frameGranted = true } }

    /// Whether the page has drawn the last frame sent (without taking its turn).
    var mayGetFrame: Bool { lock.withLock { frameGranted } }

    func takeFrameGrant() -> Bool {
        lock.withLock {
            defer { frameGranted = false }
            return frameGranted
        }
    }

    func say(_ text: String) { lock.withLock { said = text } }

    func takeSaid() -> String? {
        lock.withLock {
            defer { said = nil }
            return said
        }
    }
}
