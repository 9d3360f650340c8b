import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A small HTTP/1.1 server on loopback that implements the mobile ingestion and media routes the way the uploader
/// uses them, deduplicates records by activity ID, counts what it received, and can be told to misbehave.
///
/// For tests, benchmarks and trying VitalSnap without a Validic account (`vitalsnap serve-ingestion`). Served by
/// Hummingbird (HTTP/1.1 with keep-alive, on SwiftNIO); what it answers is `IngestionStubResponder`'s.
public final class IngestionStubServer: @unchecked Sendable {
    /// What to do with one request instead of answering it normally.
    public enum Fault: Sendable, Equatable {
        /// Answer with this status and a JSON body carrying `message`.
        case status(Int, message: String)
        /// Wait this long before answering normally (past the client's timeout, the client gives up).
        case delay(TimeInterval)
        /// Read the whole request, store nothing, close the connection without a word.
        case dropAfterBody
        /// Store the record, then close the connection without an answer (the client cannot know it arrived).
        case storeThenDrop
    }

    /// One request as the fault plan sees it.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// The record's activity ID, for record routes with a readable body.
        public var activityID: String?
        public var isMedia: Bool
        /// How many requests came before this one.
        public var index: Int
    }

    /// A record as stored: the first delivery of its activity ID.
    public struct StoredRecord: Sendable {
        public var type: String
        public var activityID: String
        public var serverID: String
        public var json: [String: String]  // top-level scalar fields as text, enough for tests to check
        public var body: Data
    }

    /// The port listened on, once `start` has returned.
    public var port: UInt16 { store.port }
    /// The token records must carry (header and body); nil accepts any.
    public var expectedToken: String? { store.expectedToken }

    /// What the server holds and counts; the responder shares it, so the server is freed (and stops) when dropped.
    private let store: IngestionStore
    private let lock = NSLock()
    private var running: Running?

    /// A started server: its listening socket, the service group that runs the application and its task.
    private struct Running {
        var listener: any Channel
        var group: ServiceGroup
        var task: Task<Void, Never>
    }

    public init(expectedToken: String? = nil) {
        store = IngestionStore(expectedToken: expectedToken)
    }

    deinit { stop() }

    // MARK: - Observations

    public var storedRecords: [StoredRecord] { store.records }
    /// Deliveries of an activity ID already stored (answered with the stored record, not stored again).
    public var duplicateDeliveries: Int { store.duplicateDeliveries }
    public var requests: Int { store.requests }
    /// Media stored, by the server's record ID.
    public var storedMedia: [String: Data] { store.media }
    public var duplicateMediaDeliveries: Int { store.duplicateMediaDeliveries }

    public func setFaultPlan(_ plan: @escaping @Sendable (Request) -> Fault?) {
        store.setFaultPlan(plan)
    }

    // MARK: - Running

    /// Listens on 127.0.0.1 (`port` 0 picks a free one; read `port` after) and returns once it listens.
    public func start(port requested: UInt16 = 0) throws {
        guard lock.withLock({ running == nil }) else { throw ServerError("already listening on 127.0.0.1:\(port)") }
        let responder = IngestionStubResponder(store: store)
        let started = StartSignal()
        let store = self.store
        let app = Application(
            responder: CallbackResponder<StubRequestContext> { request, context in try await responder.respond(to: request, context: context) },
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: Int(requested))),
            onServerRunning: { listener in
                store.port = UInt16(listener.localAddress?.port ?? 0)
                started.report(.success(listener))
            },
            logger: Self.logger)
        // The application runs in a service group, which `stop` shuts down gracefully, on an executor of its own,
        // not Swift's shared pool: this thread waits below for it to listen, and may itself be one of the shared
        // pool's threads (an async test calling `start`).
        let group = ServiceGroup(configuration: .init(services: [app], logger: Self.logger))
        let task = Task(executorPreference: ServerExecutor()) {
            do {
                try await group.run()
                started.report(.failure(ServerError("the server stopped before it listened")))
            } catch {
                started.report(.failure(error))
            }
        }
        switch started.wait(timeout: 30) {
        case .success(let listener):
            lock.withLock { running = Running(listener: listener, group: group, task: task) }
        case .failure(let error):
            task.cancel()
            throw ServerError("cannot listen on 127.0.0.1:\(requested): \(error)")
        }
    }

    /// Stops listening: new connections are refused from now on. Requests being answered are answered; the
    /// connections close then.
    public func stop() {
        let stopped = lock.withLock { () -> Running? in
            defer { running = nil }
            return running
        }
        guard let stopped else { return }
        // A graceful shutdown closes the listening socket at once, then ends the application once the connections
        // it has accepted are answered and closed. (Closing the socket here instead, or cancelling the task, could
        // leave a connection accepted just before, never served, whose writer NIO traps on when it is freed
        // unfinished: swift-nio issue 3481.) `stop` returns once the socket is closed, so that new connections are
        // refused from then on.
        let group = stopped.group
        Task(executorPreference: ServerExecutor()) { await group.triggerGracefulShutdown() }
        if !stopped.listener.eventLoop.inEventLoop {
            try? stopped.listener.closeFuture.wait()
        }
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/v1")! }

    /// Hummingbird's log: warnings and errors only, whatever the environment says (an application given no logger
    /// reads LOG_LEVEL), so that `serve-ingestion`'s output stays its own.
    private static let logger: Logger = {
        var logger = Logger(label: "vitalsnap.ingest-stub")
        logger.logLevel = .warning
        return logger
    }()
}

public struct ServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The listening socket or the reason there is none, handed from the application's task to `start`.
private final class StartSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<any Channel, any Error>?

    /// The first report counts.
    func report(_ result: Result<any Channel, any Error>) {
        condition.withLock {
            if self.result == nil { self.result = result }
            condition.broadcast()
        }
    }

    func wait(timeout: TimeInterval) -> Result<any Channel, any Error> {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while result == nil {
                if !condition.wait(until: deadline) {
                    return .failure(ServerError("not listening after \(Int(timeout)) s"))
                }
            }
            return result!
        }
    }
}

/// Runs a server's tasks on a dispatch queue of its own: `start` blocks until the server listens, which must not
/// depend on a free thread in Swift's shared pool.
private final class ServerExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "vitalsnap.ingest-stub")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
