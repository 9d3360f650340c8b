import Foundation

/// Reads many photos on several threads and hands the results back in input order as soon as each one and all
/// before it are done, so output streams and memory stays flat however large the folder.
public struct BatchRunner: Sendable {
    public var peripheral: PeripheralDefinition
    public var unit: String?
    public var jobs: Int

    public init(peripheral: PeripheralDefinition, unit: String?, jobs: Int) {
        self.peripheral = peripheral
        self.unit = unit
        self.jobs = max(1, jobs)
    }

    /// Calls `deliver` on the calling thread, once per entry, in order.
    public func run(_ entries: [ImageFileCollector.Entry], deliver: (Int, PhotoResult) -> Void) {
        let state = SharedState(count: entries.count)
        let workers = min(jobs, max(1, entries.count))
        let peripheral = self.peripheral, unit = self.unit
        for _ in 0..<workers {
            let thread = Thread {
                var reader = PhotoReader(peripheral: peripheral, unit: unit)
                while let index = state.nextIndex() {
                    let entry = entries[index]
                    let result: PhotoResult
                    if let error = entry.error {
                        result = PhotoResult(file: entry.path, status: .error, message: error)
                    } else {
                        result = reader.read(file: entry.path)
                    }
                    state.store(result, at: index)
                }
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        for index in 0..<entries.count {
            deliver(index, state.waitFor(index))
        }
    }

    /// Work queue and result slots shared by the workers and the delivering thread.
    private final class SharedState: @unchecked Sendable {
        private let condition = NSCondition()
        private var next = 0
        private let count: Int
        private var results: [PhotoResult?]

        init(count: Int) {
            self.count = count
            results = Array(repeating: nil, count: count)
        }

        func nextIndex() -> Int? {
            condition.lock()
            defer { condition.unlock() }
            guard next < count else { return nil }
            next += 1
            return next - 1
        }

        func store(_ result: PhotoResult, at index: Int) {
            condition.lock()
            results[index] = result
            condition.broadcast()
            condition.unlock()
        }

        func waitFor(_ index: Int) -> PhotoResult {
            condition.lock()
            defer { condition.unlock() }
            while results[index] == nil { condition.wait() }
            let r = results[index]!
            results[index] = nil  // delivered: drop it
            return r
        }
    }
}
