import VitalSnapCapture

#if canImport(Glibc)
import Glibc
#endif

/// A `V4L2Driver` that plays back a scripted session of a camera's answers and records every call, keeping the
/// rules a real driver enforces (a buffer is queued at most once, DQBUF only returns queued buffers, in queue
/// order, only while streaming; munmap only of live mappings; nothing after close) and noting each breach in
/// `violations`.
///
/// Frames arrive in batches: the first blocking dequeue (timeout > 0) with nothing left in the current batch moves
/// to the next batch, which holds the frames that are "ready" at that moment; a dequeue with timeout 0 only sees
/// what is left of the current batch. An empty batch is a wait that timed out. Each frame is written into the mapped
/// buffer the driver fills next, as the kernel would.
final class RecordedV4L2Driver: V4L2Driver {
    enum Call: Equatable {
        case open(String)
        case close(Int32)
        case queryCapabilities
        case enumerateFormat(Int)
        case enumerateFrameSize(FourCC, Int)
        case setFormat(V4L2PixelFormat)
        case requestBuffers(Int)
        case queryBuffer(Int)
        case map(length: Int, offset: Int)
        case unmap(offset: Int)
        case queueBuffer(Int)
        case dequeueBuffer(timeout: Int)
        case streamOn
        case streamOff

        var operation: V4L2Operation {
            switch self {
            case .open: .open
            case .close: .close
            case .queryCapabilities: .queryCapabilities
            case .enumerateFormat: .enumerateFormat
            case .enumerateFrameSize: .enumerateFrameSize
            case .setFormat: .setFormat
            case .requestBuffers: .requestBuffers
            case .queryBuffer: .queryBuffer
            case .map: .map
            case .unmap: .unmap
            case .queueBuffer: .queueBuffer
            case .dequeueBuffer: .dequeueBuffer
            case .streamOn: .streamOn
            case .streamOff: .streamOff
            }
        }
    }

    struct RecordedFrame {
        var bytes: [UInt8]
        var sequence: UInt32
        var timestamp: Double
        var isError = false
        /// What DQBUF reports as bytesused; nil: bytes.count.
        var bytesUsed: Int?
    }

    // MARK: The script

    var capabilities = V4L2Capabilities(
        driver: "uvcvideo", card: "Recorded Camera", busInfo: "usb-0000:00:14.0-1",
        capabilities: [.videoCapture, .metadataCapture, .streaming, .deviceCaps], deviceCaps: [.videoCapture, .streaming])
    var formats: [V4L2FormatDescription]
    var frameSizes: [FourCC: [V4L2FrameSize]] = [:]
    /// VIDIOC_S_FMT's answer; nil: `defaultAnswer` (a driver that takes any offered format at any size).
    var setFormatAnswer: ((V4L2PixelFormat) -> V4L2PixelFormat)?
    /// VIDIOC_REQBUFS grants at most this many; nil: as many as asked.
    var maximumBuffers: Int?
    /// Extra bytes at the end of every buffer, beyond sizeimage.
    var bufferSlack = 0
    var arrivals: [[RecordedFrame]] = []
    /// errno to fail with, per operation and per call number (1 = the first call of that kind).
    private var failures: [V4L2Operation: [Int: Int32]] = [:]
    /// Called with the number of blocking waits so far each time one ends without a frame (to stop mid-wait).
    var onEmptyWait: ((Int) -> Void)?
    private var emptyWaits = 0

    // MARK: What happened

    private(set) var calls: [Call] = []
    private(set) var violations: [String] = []
    private(set) var isOpen = false
    private(set) var successfulOpens = 0
    private(set) var isStreaming = false
    private(set) var grantedBuffers = 0
    /// Buffer indices held by the driver, in the order they will be filled.
    private(set) var queued: [Int] = []
    /// How often each buffer index was queued.
    private(set) var queueCounts: [Int: Int] = [:]
    private(set) var currentFormat: V4L2PixelFormat?
    private var mappings: [Int: UnsafeMutableRawBufferPointer] = [:]  // by offset
    private var batch = -1
    private var positionInBatch = 0

    static let fd: Int32 = 7
    static let offsetStride = 0x10_0000

    init(formats: [V4L2FormatDescription], arrivals: [[RecordedFrame]] = []) {
        self.formats = formats
        self.arrivals = arrivals
    }

    convenience init(offering fourccs: [FourCC], arrivals: [[RecordedFrame]] = []) {
        self.init(formats: fourccs.map { V4L2FormatDescription(fourcc: $0, description: $0.description) }, arrivals: arrivals)
    }

    deinit {
        for mapping in mappings.values { mapping.deallocate() }
    }

    func fail(_ operation: V4L2Operation, with code: Int32, onCall number: Int = 1) {
        failures[operation, default: [:]][number] = code
    }

    func count(_ operation: V4L2Operation) -> Int { calls.filter { $0.operation == operation }.count }

    var liveMappings: Int { mappings.count }
    /// What VIDIOC_S_FMT was asked for, in order.
    var setFormatRequests: [V4L2PixelFormat] {
        calls.compactMap { call -> V4L2PixelFormat? in
            guard case .setFormat(let format) = call else { return nil }
            return format
        }
    }
    /// The offsets of the buffers munmap released, in order.
    var unmappedOffsets: [Int] {
        calls.compactMap { call -> Int? in
            guard case .unmap(let offset) = call else { return nil }
            return offset
        }
    }
    var framesLeft: Int { arrivals.dropFirst(max(batch, 0)).reduce(0) { $0 + $1.count } - (batch >= 0 ? positionInBatch : 0) }

    /// Echo the request when the format is offered (bytesperline and sizeimage filled in); otherwise answer with
    /// the first offered format, as real drivers do instead of failing.
    func defaultAnswer(_ asked: V4L2PixelFormat) -> V4L2PixelFormat {
        var answer = asked
        if !formats.contains(where: { $0.fourcc == asked.fourcc }), let first = formats.first { answer.fourcc = first.fourcc }
        switch answer.fourcc {
        case .grey: answer.bytesPerLine = answer.width
        case .yuyv: answer.bytesPerLine = answer.width * 2
        default: answer.bytesPerLine = 0
        }
        // For MJPEG, sizeimage is the most a compressed frame may take (UVC drivers answer generously).
        answer.sizeImage = answer.bytesPerLine > 0 ? answer.bytesPerLine * answer.height : answer.width * answer.height * 2 + 8192
        return answer
    }

    // MARK: V4L2Driver

    func open(_ path: String) throws(V4L2Errno) -> Int32 {
        try record(.open(path))
        if isOpen { violations.append("opened twice") }
        isOpen = true
        successfulOpens += 1
        return Self.fd
    }

    func close(_ fd: Int32) throws(V4L2Errno) {
        try record(.close(fd))
        guard isOpen else { violations.append("close of a closed fd"); throw V4L2Errno(EBADF) }
        if isStreaming { isStreaming = false; queued = [] }  // closing stops streaming
        isOpen = false
    }

    func queryCapabilities(_ fd: Int32) throws(V4L2Errno) -> V4L2Capabilities {
        try record(.queryCapabilities, fd)
        return capabilities
    }

    func enumerateFormat(_ fd: Int32, index: Int) throws(V4L2Errno) -> V4L2FormatDescription {
        try record(.enumerateFormat(index), fd)
        guard formats.indices.contains(index) else { throw V4L2Errno(EINVAL) }
        return formats[index]
    }

    func enumerateFrameSize(_ fd: Int32, fourcc: FourCC, index: Int) throws(V4L2Errno) -> V4L2FrameSize {
        try record(.enumerateFrameSize(fourcc, index), fd)
        guard let sizes = frameSizes[fourcc], sizes.indices.contains(index) else { throw V4L2Errno(EINVAL) }
        return sizes[index]
    }

    func setFormat(_ fd: Int32, _ format: V4L2PixelFormat) throws(V4L2Errno) -> V4L2PixelFormat {
        try record(.setFormat(format), fd)
        if grantedBuffers > 0 { throw V4L2Errno(EBUSY) }
        let answer = setFormatAnswer?(format) ?? defaultAnswer(format)
        currentFormat = answer
        return answer
    }

    func requestBuffers(_ fd: Int32, count: Int) throws(V4L2Errno) -> Int {
        try record(.requestBuffers(count), fd)
        if isStreaming { throw V4L2Errno(EBUSY) }
        grantedBuffers = min(count, maximumBuffers ?? count)
        return grantedBuffers
    }

    func queryBuffer(_ fd: Int32, index: Int) throws(V4L2Errno) -> V4L2BufferInfo {
        try record(.queryBuffer(index), fd)
        guard index < grantedBuffers else { throw V4L2Errno(EINVAL) }
        let length = max(currentFormat?.sizeImage ?? 0, 1) + bufferSlack
        return V4L2BufferInfo(index: index, length: length, offset: index * Self.offsetStride)
    }

    func map(_ fd: Int32, length: Int, offset: Int) throws(V4L2Errno) -> UnsafeMutableRawBufferPointer {
        try record(.map(length: length, offset: offset), fd)
        guard offset % Self.offsetStride == 0, offset / Self.offsetStride < grantedBuffers else { throw V4L2Errno(EINVAL) }
        if mappings[offset] != nil { violations.append("buffer at offset \(offset) mapped twice") }
        let mapping = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 64)
        mapping.initializeMemory(as: UInt8.self, repeating: 0xEE)
        mappings[offset] = mapping
        return mapping
    }

    func unmap(_ buffer: UnsafeMutableRawBufferPointer) throws(V4L2Errno) {
        let offset = mappings.first { $0.value.baseAddress == buffer.baseAddress }?.key
        calls.append(.unmap(offset: offset ?? -1))
        if let code = injectedFailure(.unmap) { throw V4L2Errno(code) }
        guard let offset, let mapping = mappings.removeValue(forKey: offset) else {
            violations.append("munmap of memory that is not mapped")
            throw V4L2Errno(EINVAL)
        }
        if mapping.count != buffer.count { violations.append("munmap with length \(buffer.count), mapped \(mapping.count)") }
        mapping.deallocate()
    }

    func queueBuffer(_ fd: Int32, index: Int) throws(V4L2Errno) {
        try record(.queueBuffer(index), fd)
        guard index >= 0, index < grantedBuffers else {
            violations.append("QBUF of buffer \(index), only \(grantedBuffers) exist")
            throw V4L2Errno(EINVAL)
        }
        guard !queued.contains(index) else {
            violations.append("QBUF of buffer \(index), already queued")
            throw V4L2Errno(EINVAL)
        }
        if mappings[index * Self.offsetStride] == nil { violations.append("QBUF of buffer \(index), not mapped") }
        queued.append(index)
        queueCounts[index, default: 0] += 1
    }

    func dequeueBuffer(_ fd: Int32, timeoutMilliseconds: Int) throws(V4L2Errno) -> V4L2DequeuedBuffer? {
        try record(.dequeueBuffer(timeout: timeoutMilliseconds), fd)
        guard isStreaming else {
            violations.append("DQBUF while not streaming")
            throw V4L2Errno(EINVAL)
        }
        let batchHasMore = batch >= 0 && batch < arrivals.count && positionInBatch < arrivals[batch].count
        if !batchHasMore {
            guard timeoutMilliseconds > 0 else { return nil }
            batch += 1
            positionInBatch = 0
            guard batch < arrivals.count, !arrivals[batch].isEmpty else {  // the wait timed out
                emptyWaits += 1
                onEmptyWait?(emptyWaits)
                return nil
            }
        }
        guard !queued.isEmpty else {
            violations.append("DQBUF with no buffer queued: the camera kept every buffer")
            throw V4L2Errno(EINVAL)
        }
        let frame = arrivals[batch][positionInBatch]
        positionInBatch += 1
        let index = queued.removeFirst()
        guard let mapping = mappings[index * Self.offsetStride], frame.bytes.count <= mapping.count else {
            violations.append("frame of \(frame.bytes.count) bytes does not fit buffer \(index)")
            throw V4L2Errno(EIO)
        }
        frame.bytes.withUnsafeBytes { mapping.copyMemory(from: $0) }
        return V4L2DequeuedBuffer(
            index: index, bytesUsed: frame.bytesUsed ?? frame.bytes.count, sequence: frame.sequence,
            timestamp: frame.timestamp, isError: frame.isError)
    }

    func streamOn(_ fd: Int32) throws(V4L2Errno) {
        try record(.streamOn, fd)
        guard grantedBuffers > 0 else { throw V4L2Errno(EINVAL) }
        isStreaming = true
    }

    func streamOff(_ fd: Int32) throws(V4L2Errno) {
        try record(.streamOff, fd)
        isStreaming = false
        queued = []  // STREAMOFF hands every buffer back to the application
    }

    // MARK: Helpers

    private func record(_ call: Call, _ fd: Int32? = nil) throws(V4L2Errno) {
        calls.append(call)
        if let fd, fd != Self.fd || !isOpen { violations.append("\(call.operation.rawValue) on fd \(fd) that is not open") }
        if let code = injectedFailure(call.operation) { throw V4L2Errno(code) }
    }

    private func injectedFailure(_ operation: V4L2Operation) -> Int32? {
        failures[operation]?[count(operation)]
    }
}
