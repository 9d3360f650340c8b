/// A ring buffer of fixed capacity: appending to a full buffer overwrites the oldest element.
///
/// The storage is reserved once, in `init`; `append` and `removeAll` never allocate afterwards (overwritten
/// elements are released, so elements holding references keep nothing alive longer than they are in the
/// buffer). Elements are indexed from the oldest (`0`) to the newest (`count - 1`).
public struct FixedRingBuffer<Element>: RandomAccessCollection {
    public let capacity: Int
    private var storage: ContiguousArray<Element>
    /// Where the oldest element is, once the buffer has wrapped (before that, always 0).
    private var head = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "a ring buffer needs room for at least one element")
        self.capacity = capacity
        storage = []
        storage.reserveCapacity(capacity)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public var count: Int { storage.count }
    public var isFull: Bool { storage.count == capacity }

    /// The element `position` places after the oldest one (0 is the oldest, `count - 1` the newest).
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < storage.count, "ring buffer index out of range")
        let i = head + position
        return storage[i < capacity ? i : i - capacity]
    }

    public var newest: Element? { storage.isEmpty ? nil : self[storage.count - 1] }
    public var oldest: Element? { storage.isEmpty ? nil : self[0] }

    /// Adds `element` as the newest; when full, the oldest is dropped and returned.
    @discardableResult
    public mutating func append(_ element: Element) -> Element? {
        if storage.count < capacity {
            storage.append(element)
            return nil
        }
        let dropped = storage[head]
        storage[head] = element
        head += 1
        if head == capacity { head = 0 }
        return dropped
    }

    /// Empties the buffer, keeping its storage.
    public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }
}

extension FixedRingBuffer {
    /// Where the storage is, to check that it is never reallocated.
    var storageAddress: UInt { storage.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
}

extension FixedRingBuffer: Sendable where Element: Sendable {}
