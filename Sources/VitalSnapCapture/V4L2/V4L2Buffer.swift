/// What VIDIOC_QUERYBUF answers for one memory-mapped buffer: where to mmap it.
public struct V4L2BufferInfo: Sendable, Equatable {
    public var index: Int
    public var length: Int
    /// The `offset` to pass to mmap.
    public var offset: Int

    public init(index: Int, length: Int, offset: Int) {
        self.index = index
        self.length = length
        self.offset = offset
    }
}

/// What VIDIOC_DQBUF answers: which buffer holds a new frame, and about that frame.
public struct V4L2DequeuedBuffer: Sendable, Equatable {
    public var index: Int
    /// Bytes of frame data at the start of the buffer (0: the driver did not say; assume the format's sizeimage).
    public var bytesUsed: Int
    /// The driver's frame counter; it skips a number for each frame the driver dropped.
    public var sequence: UInt32
    /// Seconds, on the driver's clock (normally CLOCK_MONOTONIC); 0 when the driver gives none.
    public var timestamp: Double
    /// V4L2_BUF_FLAG_ERROR: the data may be damaged (the buffer must still be queued again).
    public var isError: Bool

    public init(index: Int, bytesUsed: Int, sequence: UInt32, timestamp: Double, isError: Bool = false) {
        self.index = index
        self.bytesUsed = bytesUsed
        self.sequence = sequence
        self.timestamp = timestamp
        self.isError = isError
    }
}
