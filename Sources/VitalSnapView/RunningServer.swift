import Foundation
import ServiceLifecycle

/// The server's task, the service group it runs and the access policy, set once the server listens.
final class RunningServer: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, any Error>?
    private var group: ServiceGroup?
    private var access: ViewAccessPolicy?

    var policy: ViewAccessPolicy? { lock.withLock { access } }

    func set(task: Task<Void, any Error>, group: ServiceGroup, policy: ViewAccessPolicy) {
        lock.withLock {
            self.task = task
            self.group = group
            access = policy
        }
    }

    func take() -> (task: Task<Void, any Error>, group: ServiceGroup)? {
        lock.withLock {
            defer { task = nil; group = nil }
            guard let task, let group else { return nil }
            return (task, group)
        }
    }
}
