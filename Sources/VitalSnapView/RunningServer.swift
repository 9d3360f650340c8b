import Foundation

/// The server task and the access policy, set once the server listens.
final class RunningServer: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, any Error>?
    private var access: ViewAccessPolicy?

    var policy: ViewAccessPolicy? { lock.withLock { access } }

    func set(task: Task<Void, any Error>, policy: ViewAccessPolicy) {
        lock.withLock {
            self.task = task
            access = policy
        }
    }

    func takeTask() -> Task<Void, any Error>? {
        lock.withLock {
            let t = task
            task = nil
            return t
        }
    }
}
