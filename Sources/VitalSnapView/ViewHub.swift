import Foundation
import VitalSnapImaging

/// What a capture view shows and what its pages ask, handed between the reading (on its own thread) and the
/// pages (on the server's). It holds one frame, the newest: a page that is slow gets fewer frames, never a
/// queue of them, whatever it does.
public final class ViewHub: @unchecked Sendable {
    /// How a reading ended, as the page decided it.
    public enum Decision: Sendable, Hashable {
        case accept
        case edit(String)
        case retake
        case cancel
        /// Every page was closed (and none reopened within the grace period): a cancel.
        case pageClosed
    }

    /// How long every page may stay closed before that counts as a cancel (a reload is not one).
    public let closeGrace: Duration

    private let lock = NSLock()
    private var shown = ViewSnapshot()
    private var crop: [UInt8] = []
    private var awaitingDecision = false
    private var decisions: [Decision] = []
    private var decisionWaiter: CheckedContinuation<Decision, Never>?
    private var cancelled = false
    private var pages: [Int: AsyncStream<Void>.Continuation] = [:]
    private var nextPage = 0
    private var everOpened = false
    private var allClosedSince: ContinuousClock.Instant?
    private var closed = false
    private var finishedShown = false
    private var finishedWaiters: [CheckedContinuation<Void, Never>] = []
    private var pageWaiters: [CheckedContinuation<Void, Never>] = []

    public init(closeGrace: Duration = .seconds(3)) {
        self.closeGrace = closeGrace
    }

    // MARK: - The reading's side

    public func show(_ session: ViewSession) {
        change { $0.session = session; $0.versions.session += 1 }
    }

    /// The newest frame and what reading it gave.
    public func show(frame image: GrayImage, state: ViewFrameState) {
        change {
            $0.frame = image
            $0.frameState = state
            $0.versions.frame += 1
        }
    }

    /// A steady reading, with the crop of the display (PNG), waiting for the page's decision.
    public func show(_ converged: ViewConverged, crop png: [UInt8]) {
        change {
            self.crop = png
            self.awaitingDecision = true
            $0.converged = converged
            $0.versions.converged += 1
        }
    }

    /// The steady reading shown stays to be decided on again (an edit was refused: the notice says why).
    public func awaitDecisionAgain() {
        lock.withLock { awaitingDecision = true }
    }

    /// Back to reading: the steady reading is withdrawn.
    public func withdrawConverged() {
        change {
            self.awaitingDecision = false
            $0.converged = nil
            $0.versions.converged += 1
        }
    }

    public func show(_ notice: ViewNotice) {
        change { $0.notice = notice; $0.versions.notice += 1 }
    }

    /// How the reading ended; the pages show it and the view then stops.
    public func show(_ finished: ViewFinished) {
        change {
            self.awaitingDecision = false
            $0.finished = finished
            $0.versions.finished += 1
        }
    }

    /// The page's decision on the steady reading shown: waits for one.
    public func decision() async -> Decision {
        await withCheckedContinuation { continuation in
            lock.lock()
            if !decisions.isEmpty {
                let next = decisions.removeFirst()
                lock.unlock()
                continuation.resume(returning: next)
            } else if closed || cancelled {
                lock.unlock()
                continuation.resume(returning: closed ? .pageClosed : .cancel)
            } else {
                decisionWaiter = continuation
                lock.unlock()
            }
        }
    }

    /// Whether the page asked to cancel, or every page was closed past the grace period: the reading stops.
    public var isCancelled: Bool { lock.withLock { cancelled || closed } }

    /// Waits until a page has opened (at once if one has).
    public func waitForPage() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if everOpened {
                lock.unlock()
                continuation.resume()
            } else {
                pageWaiters.append(continuation)
                lock.unlock()
            }
        }
    }

    /// Whether a page is open now.
    public var hasOpenPage: Bool { lock.withLock { !pages.isEmpty } }

    /// Whether every page that was opened has been closed past the grace period.
    public var wasClosed: Bool { lock.withLock { closed } }

    /// Waits until a page has shown how the reading ended, or until `timeout` passes without that (no page
    /// open, say).
    public func waitUntilFinishedIsShown(timeout: Duration) async {
        let waiter = Task {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if finishedShown {
                    lock.unlock()
                    continuation.resume()
                } else {
                    finishedWaiters.append(continuation)
                    lock.unlock()
                }
            }
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.resumeFinishedWaiters()
        }
        await waiter.value
        timer.cancel()
    }

    // MARK: - The pages' side

    /// A page opened: its wake-ups (coalesced: a page that is behind gets one) and its number.
    func open() -> (number: Int, wakeups: AsyncStream<Void>) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (number, waiters) = lock.withLock {
            nextPage += 1
            pages[nextPage] = continuation
            everOpened = true
            allClosedSince = nil
            let waiters = pageWaiters
            pageWaiters = []
            return (nextPage, waiters)
        }
        continuation.yield()
        for waiter in waiters { waiter.resume() }
        return (number, stream)
    }

    func close(_ number: Int) {
        let since: ContinuousClock.Instant? = lock.withLock {
            pages.removeValue(forKey: number)?.finish()
            guard pages.isEmpty, everOpened else { return nil }
            let now = ContinuousClock.now
            allClosedSince = now
            return now
        }
        guard let since else { return }
        // A timer of its own rather than a sleeping task: the cancel is due when the grace period ends, even
        // while the cooperative threads are all busy (a slow machine reading frames, a loaded test run).
        let (seconds, attoseconds) = closeGrace.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            self.closeIfStillClosed(since: since)
        }
    }

    /// Ends every page's connection (the view is stopping): their senders finish, and so do their sockets.
    func endPages() {
        let all = lock.withLock { () -> [AsyncStream<Void>.Continuation] in
            let all = Array(pages.values)
            pages.removeAll()
            return all
        }
        for page in all { page.finish() }
    }

    /// Wakes page `number`'s sender (it may send the next frame).
    func wake(_ number: Int) {
        _ = lock.withLock { pages[number]?.yield() }
    }

    func snapshot() -> ViewSnapshot { lock.withLock { shown } }

    var cropPNG: [UInt8] { lock.withLock { crop } }

    /// A page has sent the finished message.
    func finishedWasShown() {
        lock.withLock { finishedShown = true }
        resumeFinishedWaiters()
    }

    /// What a page asked; nil when accepted, else why it was not (said to that page).
    func submit(_ command: ViewCommand) -> String? {
        lock.lock()
        switch command {
        case .drawn:
            lock.unlock()
            return nil
        case .cancel:
            cancelled = true
            return deliver(.cancel)
        case .accept, .edit, .retake:
            guard awaitingDecision else {
                lock.unlock()
                return "there is no steady reading to \(command == .retake ? "retake" : "accept") yet"
            }
            awaitingDecision = false
            switch command {
            case .accept: return deliver(.accept)
            case .edit(let value): return deliver(.edit(value))
            default: return deliver(.retake)
            }
        }
    }

    // MARK: - Inside

    /// Hands `decision` to the reading (called with the lock held; releases it).
    private func deliver(_ decision: Decision) -> String? {
        if let waiter = decisionWaiter {
            decisionWaiter = nil
            lock.unlock()
            waiter.resume(returning: decision)
        } else {
            decisions.append(decision)
            lock.unlock()
        }
        return nil
    }

    private func closeIfStillClosed(since: ContinuousClock.Instant) {
        lock.lock()
        guard pages.isEmpty, allClosedSince == since, !closed else {
            lock.unlock()
            return
        }
        closed = true
        if let waiter = decisionWaiter {
            decisionWaiter = nil
            lock.unlock()
            waiter.resume(returning: .pageClosed)
        } else {
            lock.unlock()
        }
    }

    private func resumeFinishedWaiters() {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            let all = finishedWaiters
            finishedWaiters = []
            return all
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Changes what is shown and wakes every page.
    private func change(_ body: (inout ViewSnapshot) -> Void) {
        let wakeups = lock.withLock { () -> [AsyncStream<Void>.Continuation] in
            body(&shown)
            return Array(pages.values)
        }
        for page in wakeups { page.yield() }
    }
}
