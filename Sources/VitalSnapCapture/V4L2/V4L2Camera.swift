import VitalSnapImaging

#if canImport(Glibc)
import Glibc
#endif

/// A V4L2 camera as a `FrameSource`: gray frames from a webcam through libv4l2 (or any `V4L2Driver`).
///
/// Opening (in `init`): open the node → VIDIOC_QUERYCAP (video capture and streaming I/O needed) →
/// VIDIOC_ENUM_FMT and VIDIOC_ENUM_FRAMESIZES → VIDIOC_S_FMT with the best candidate of `V4L2FormatChoice`
/// (the next one when the driver answers with something unusable) → VIDIOC_REQBUFS (`bufferCount`
/// memory-mapped buffers) → VIDIOC_QUERYBUF and mmap of each → VIDIOC_QBUF of each → VIDIOC_STREAMON. Any
/// failure releases what was acquired and throws the `CaptureError` for it (`V4L2ErrorMapping`).
///
/// Each `nextFrame()` dequeues a filled buffer (waiting in slices of `pollSliceMilliseconds`, up to
/// `frameTimeout`), then, with `dropsStaleFrames`, keeps dequeuing while more frames are already waiting, handing
/// each older one straight back, so the consumer always gets the newest frame and the driver never runs out of
/// buffers. The frame is copied into a `GrayImage` and its buffer is queued again before `nextFrame()`
/// returns, so the camera holds no buffer between calls. Frames the driver flags as damaged, short ones and
/// MJPEG frames that do not decode are skipped (`maxConsecutiveBadFrames` in a row is an error).
///
/// `Frame.timestamp` is the driver's timestamp in seconds since the first frame (the process's monotonic
/// clock when the driver gives none); `Frame.sequence` follows the driver's sequence numbers from 1, and each
/// number skipped (a frame the driver dropped, or one passed over for a newer one) adds to `droppedFrames`.
///
/// Not thread-safe: use it from one thread. To stop from elsewhere (Ctrl-C), call `stopRequest.request()`.
public final class V4L2Camera: FrameSource {
    public let name: String
    public let options: V4L2CameraOptions
    /// Set from any thread to make `nextFrame()` release the camera and return nil.
    public let stopRequest: CaptureStopRequest
    public private(set) var droppedFrames = 0
    /// What VIDIOC_QUERYCAP answered.
    public private(set) var capabilities: V4L2Capabilities?
    /// Every format the device offered (VIDIOC_ENUM_FMT).
    public private(set) var offeredFormats: [V4L2FormatDescription] = []
    /// The format streaming uses, as the driver set it (its size may differ from the one asked for).
    public private(set) var format: V4L2PixelFormat?
    /// Mapped buffers (as many as the driver granted).
    public var bufferCount: Int { buffers.count }

    private let driver: any V4L2Driver
    private let clock: () -> Double
    private var fd: Int32?
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var streaming = false
    private var stopped = false

    private var lastDriverSequence: UInt32?
    private var sequence = 0
    private var discardedSinceLastFrame = 0
    private var consecutiveBadFrames = 0
    private var timeOrigin: Double?
    private var usesDriverClock = true

    /// Opens the camera and starts streaming.
    /// - Parameter clock: seconds on a monotonic clock, used only when the driver gives no timestamps.
    public init(
        options: V4L2CameraOptions = .init(),
        driver: any V4L2Driver = LibV4L2Driver(),
        stopRequest: CaptureStopRequest = CaptureStopRequest(),
        clock: @escaping () -> Double = V4L2Camera.monotonicSeconds
    ) throws(CaptureError) {
        self.name = options.device
        self.options = options
        self.driver = driver
        self.stopRequest = stopRequest
        self.clock = clock
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    /// The real camera at `path` through libv4l2, asking for `width`x`height` (other options default).
    public convenience init(path: String, width: Int, height: Int) throws(CaptureError) {
        try self.init(options: V4L2CameraOptions(device: path, size: CaptureSize(width: width, height: height)))
    }

    deinit { stop() }

    // MARK: - FrameSource

    public func nextFrame() throws(CaptureError) -> Frame? {
        while true {
            guard let fd, streaming, let format else { return nil }
            guard var buffer = try waitForBuffer(fd) else { return nil }
            if options.dropsStaleFrames {
                while let newer = try dequeue(fd, timeoutMilliseconds: 0) {
                    try queue(fd, buffer.index)
                    discardedSinceLastFrame += 1
                    buffer = newer
                }
            }
            let image = read(buffer, format: format)
            try queue(fd, buffer.index)
            switch image {
            case .success(let image):
                consecutiveBadFrames = 0
                return frame(image, from: buffer)
            case .failure(let failure):
                discardedSinceLastFrame += 1
                consecutiveBadFrames += 1
                if consecutiveBadFrames >= max(options.maxConsecutiveBadFrames, 1) {
                    throw .streamFailed(name, reason: "\(consecutiveBadFrames) frames in a row unreadable, the last: \(failure)")
                }
            }
        }
    }

    /// Stream off, unmap every buffer, close the device; each once, errors ignored. Safe to call again.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        guard let fd else { return }
        if streaming {
            try? driver.streamOff(fd)
            streaming = false
        }
        for buffer in buffers { try? driver.unmap(buffer) }
        buffers = []
        try? driver.close(fd)
        self.fd = nil
    }

    /// CLOCK_MONOTONIC in seconds.
    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    // MARK: - Opening

    private func start() throws(CaptureError) {
        let device = name
        let fd = try call(.open) { () throws(V4L2Errno) in try driver.open(device) }
        self.fd = fd
        let capabilities = try call(.queryCapabilities) { () throws(V4L2Errno) in try driver.queryCapabilities(fd) }
        self.capabilities = capabilities
        try V4L2ErrorMapping.checkCapabilities(capabilities, device: device)

        offeredFormats = try enumerateFormats(fd)
        let candidates = try V4L2FormatChoice.candidates(
            offered: offeredFormats, frameSizes: enumerateFrameSizes(fd), requested: options.size, device: device)
        let format = try negotiate(fd, candidates)
        self.format = format

        let granted = try call(.requestBuffers) { () throws(V4L2Errno) in
            try driver.requestBuffers(fd, count: max(options.bufferCount, 1))
        }
        guard granted > 0 else { throw .streamFailed(device, reason: "the driver granted no capture buffers") }
        for index in 0..<granted {
            let info = try call(.queryBuffer) { () throws(V4L2Errno) in try driver.queryBuffer(fd, index: index) }
            let mapping = try call(.map) { () throws(V4L2Errno) in
                try driver.map(fd, length: info.length, offset: info.offset)
            }
            buffers.append(mapping)
        }
        for index in 0..<granted { try queue(fd, index) }
        try call(.streamOn) { () throws(V4L2Errno) in try driver.streamOn(fd) }
        streaming = true
    }

    /// VIDIOC_ENUM_FMT from index 0 until EINVAL.
    private func enumerateFormats(_ fd: Int32) throws(CaptureError) -> [V4L2FormatDescription] {
        var formats: [V4L2FormatDescription] = []
        for index in 0..<64 {
            do {
                formats.append(try driver.enumerateFormat(fd, index: index))
            } catch let error where error.code == EINVAL {
                break
            } catch {
                throw V4L2ErrorMapping.captureError(error, during: .enumerateFormat, device: name)
            }
        }
        return formats
    }

    /// VIDIOC_ENUM_FRAMESIZES for each usable format; any error ends a list (many drivers do not implement it).
    private func enumerateFrameSizes(_ fd: Int32) -> [FourCC: [V4L2FrameSize]] {
        var sizes: [FourCC: [V4L2FrameSize]] = [:]
        for format in offeredFormats
        where V4L2FormatChoice.preference(of: format.fourcc) != nil && sizes[format.fourcc] == nil {
            var list: [V4L2FrameSize] = []
            for index in 0..<256 {
                guard let size = try? driver.enumerateFrameSize(fd, fourcc: format.fourcc, index: index) else { break }
                list.append(size)
                if case .stepwise = size { break }
            }
            sizes[format.fourcc] = list
        }
        return sizes
    }

    /// VIDIOC_S_FMT with each candidate in turn until the driver answers with a usable format.
    private func negotiate(_ fd: Int32, _ candidates: [V4L2FormatChoice.Candidate]) throws(CaptureError) -> V4L2PixelFormat {
        for candidate in candidates {
            let asked = V4L2PixelFormat(fourcc: candidate.fourcc, width: candidate.size.width, height: candidate.size.height)
            let answer: V4L2PixelFormat
            do {
                answer = try driver.setFormat(fd, asked)
            } catch let error where error.code == EINVAL {
                continue
            } catch {
                throw V4L2ErrorMapping.captureError(error, during: .setFormat, device: name)
            }
            if let accepted = V4L2FormatChoice.accept(answer) { return accepted }
        }
        throw .noUsableFormat(name, offered: offeredFormats.map(\.fourcc.description))
    }

    // MARK: - Streaming

    /// The next filled buffer, waiting in slices so that a stop request is seen; nil when stop was requested.
    private func waitForBuffer(_ fd: Int32) throws(CaptureError) -> V4L2DequeuedBuffer? {
        let slice = max(options.pollSliceMilliseconds, 1)
        let limit = Int(options.frameTimeout * 1000)
        var waited = 0
        while true {
            if stopRequest.isRequested {
                stop()
                return nil
            }
            if let buffer = try dequeue(fd, timeoutMilliseconds: slice) { return buffer }
            waited += slice
            if waited >= limit {
                throw .streamFailed(name, reason: "no frame from the camera for \(options.frameTimeout) s")
            }
        }
    }

    private func dequeue(_ fd: Int32, timeoutMilliseconds: Int) throws(CaptureError) -> V4L2DequeuedBuffer? {
        let buffer = try call(.dequeueBuffer) { () throws(V4L2Errno) in
            try driver.dequeueBuffer(fd, timeoutMilliseconds: timeoutMilliseconds)
        }
        if let buffer, !buffers.indices.contains(buffer.index) {
            throw .streamFailed(name, reason: "the driver returned buffer \(buffer.index) but \(buffers.count) are mapped")
        }
        return buffer
    }

    private func queue(_ fd: Int32, _ index: Int) throws(CaptureError) {
        try call(.queueBuffer) { () throws(V4L2Errno) in try driver.queueBuffer(fd, index: index) }
    }

    private func read(_ buffer: V4L2DequeuedBuffer, format: V4L2PixelFormat) -> Result<GrayImage, V4L2FrameConverter.Failure> {
        if buffer.isError { return .failure(.init("the driver flagged frame \(buffer.sequence) as damaged")) }
        let mapping = UnsafeRawBufferPointer(buffers[buffer.index])
        let declared = buffer.bytesUsed > 0 ? buffer.bytesUsed : (format.sizeImage > 0 ? format.sizeImage : mapping.count)
        let bytes = UnsafeRawBufferPointer(rebasing: mapping[0..<min(declared, mapping.count)])
        do {
            return .success(try V4L2FrameConverter.gray(from: bytes, format: format, decodeOptions: options.decodeOptions))
        } catch {
            return .failure(error)
        }
    }

    private func frame(_ image: GrayImage, from buffer: V4L2DequeuedBuffer) -> Frame {
        // The driver's sequence numbers say how many frames went by; when they do not move forward (a driver
        // that leaves them 0), count the frames skipped here instead.
        var step = 1
        if let last = lastDriverSequence {
            let delta = buffer.sequence &- last
            step = delta == 0 || delta > UInt32.max / 2 ? discardedSinceLastFrame + 1 : Int(delta)
            droppedFrames += step - 1
        }
        lastDriverSequence = buffer.sequence
        sequence += step
        discardedSinceLastFrame = 0

        if timeOrigin == nil {
            usesDriverClock = buffer.timestamp > 0
            timeOrigin = usesDriverClock ? buffer.timestamp : clock()
        }
        let now = usesDriverClock ? buffer.timestamp : clock()
        return Frame(image: image, timestamp: max(0, now - (timeOrigin ?? now)), sequence: sequence)
    }

    private func call<T>(_ operation: V4L2Operation, _ body: () throws(V4L2Errno) -> T) throws(CaptureError) -> T {
        do {
            return try body()
        } catch {
            throw V4L2ErrorMapping.captureError(error, during: operation, device: name)
        }
    }
}
