import CCaptureShim

#if canImport(Glibc)
import Glibc
#endif

/// The real `V4L2Driver`: each method is one libv4l2 call through CCaptureShim, filling or reading the kernel
/// struct and nothing else. Needs a kernel with V4L2 and a camera; `open` fails with ENOENT without one.
///
/// libv4l2 wraps the plain syscalls so that cameras with vendor-specific formats still work, and it queries
/// the capabilities inside `open`, so a file that is not a V4L2 device fails there (ENOTTY), printing a
/// "libv4l2: error getting capabilities" line on stderr on its own.
public final class LibV4L2Driver: V4L2Driver {
    public init() {}

    private static let captureType = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
    private static let mmapMemory = V4L2_MEMORY_MMAP.rawValue

    public func open(_ path: String) throws(V4L2Errno) -> Int32 {
        let fd = cs_open(path)
        guard fd >= 0 else { throw .current }
        return fd
    }

    public func close(_ fd: Int32) throws(V4L2Errno) {
        guard cs_close(fd) == 0 else { throw .current }
    }

    public func queryCapabilities(_ fd: Int32) throws(V4L2Errno) -> V4L2Capabilities {
        var cap = v4l2_capability()
        try ioctl(fd, CS_VIDIOC_QUERYCAP, &cap)
        return V4L2Capabilities(
            driver: Self.string(cap.driver), card: Self.string(cap.card), busInfo: Self.string(cap.bus_info),
            capabilities: .init(rawValue: cap.capabilities), deviceCaps: .init(rawValue: cap.device_caps))
    }

    public func enumerateFormat(_ fd: Int32, index: Int) throws(V4L2Errno) -> V4L2FormatDescription {
        var desc = v4l2_fmtdesc()
        desc.index = UInt32(index)
        desc.type = Self.captureType
        try ioctl(fd, CS_VIDIOC_ENUM_FMT, &desc)
        return V4L2FormatDescription(
            fourcc: FourCC(rawValue: desc.pixelformat), description: Self.string(desc.description),
            isEmulated: desc.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0)
    }

    public func enumerateFrameSize(_ fd: Int32, fourcc: FourCC, index: Int) throws(V4L2Errno) -> V4L2FrameSize {
        var size = v4l2_frmsizeenum()
        size.index = UInt32(index)
        size.pixel_format = fourcc.rawValue
        try ioctl(fd, CS_VIDIOC_ENUM_FRAMESIZES, &size)
        if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
            return .discrete(CaptureSize(width: Int(size.discrete.width), height: Int(size.discrete.height)))
        }
        let s = size.stepwise
        let continuous = size.type == V4L2_FRMSIZE_TYPE_CONTINUOUS.rawValue
        return .stepwise(
            min: CaptureSize(width: Int(s.min_width), height: Int(s.min_height)),
            max: CaptureSize(width: Int(s.max_width), height: Int(s.max_height)),
            step: continuous
                ? CaptureSize(width: 1, height: 1) : CaptureSize(width: Int(s.step_width), height: Int(s.step_height)))
    }

    public func setFormat(_ fd: Int32, _ format: V4L2PixelFormat) throws(V4L2Errno) -> V4L2PixelFormat {
        var f = v4l2_format()
        f.type = Self.captureType
        f.fmt.pix.width = UInt32(clamping: format.width)
        f.fmt.pix.height = UInt32(clamping: format.height)
        f.fmt.pix.pixelformat = format.fourcc.rawValue
        f.fmt.pix.field = V4L2_FIELD_ANY.rawValue
        f.fmt.pix.bytesperline = UInt32(clamping: format.bytesPerLine)
        f.fmt.pix.sizeimage = UInt32(clamping: format.sizeImage)
        try ioctl(fd, CS_VIDIOC_S_FMT, &f)
        let pix = f.fmt.pix
        return V4L2PixelFormat(
            fourcc: FourCC(rawValue: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
            bytesPerLine: Int(pix.bytesperline), sizeImage: Int(pix.sizeimage))
    }

    public func requestBuffers(_ fd: Int32, count: Int) throws(V4L2Errno) -> Int {
        var request = v4l2_requestbuffers()
        request.count = UInt32(clamping: count)
        request.type = Self.captureType
        request.memory = Self.mmapMemory
        try ioctl(fd, CS_VIDIOC_REQBUFS, &request)
        return Int(request.count)
    }

    public func queryBuffer(_ fd: Int32, index: Int) throws(V4L2Errno) -> V4L2BufferInfo {
        var buffer = Self.buffer(index: index)
        try ioctl(fd, CS_VIDIOC_QUERYBUF, &buffer)
        return V4L2BufferInfo(index: Int(buffer.index), length: Int(buffer.length), offset: Int(buffer.m.offset))
    }

    public func map(_ fd: Int32, length: Int, offset: Int) throws(V4L2Errno) -> UnsafeMutableRawBufferPointer {
        guard let start = cs_mmap(fd, length, Int64(offset)) else { throw .current }
        return UnsafeMutableRawBufferPointer(start: start, count: length)
    }

    public func unmap(_ buffer: UnsafeMutableRawBufferPointer) throws(V4L2Errno) {
        guard cs_munmap(buffer.baseAddress, buffer.count) == 0 else { throw .current }
    }

    public func queueBuffer(_ fd: Int32, index: Int) throws(V4L2Errno) {
        var buffer = Self.buffer(index: index)
        try ioctl(fd, CS_VIDIOC_QBUF, &buffer)
    }

    public func dequeueBuffer(_ fd: Int32, timeoutMilliseconds: Int) throws(V4L2Errno) -> V4L2DequeuedBuffer? {
        // The device is open non-blocking: DQBUF answers EAGAIN at once when no frame is ready, so wait in
        // poll() (bounded) and try once more.
        if let buffer = try dequeueNow(fd) { return buffer }
        guard timeoutMilliseconds > 0 else { return nil }
        switch cs_poll_readable(fd, Int32(clamping: timeoutMilliseconds)) {
        case 0: return nil
        case -1: throw .current
        default: return try dequeueNow(fd)
        }
    }

    public func streamOn(_ fd: Int32) throws(V4L2Errno) {
        var type = Int32(bitPattern: Self.captureType)
        try ioctl(fd, CS_VIDIOC_STREAMON, &type)
    }

    public func streamOff(_ fd: Int32) throws(V4L2Errno) {
        var type = Int32(bitPattern: Self.captureType)
        try ioctl(fd, CS_VIDIOC_STREAMOFF, &type)
    }

    // MARK: - Helpers

    private func dequeueNow(_ fd: Int32) throws(V4L2Errno) -> V4L2DequeuedBuffer? {
        var buffer = Self.buffer(index: 0)
        guard cs_ioctl(fd, CS_VIDIOC_DQBUF, &buffer) == 0 else {
            let error = V4L2Errno.current
            if error.code == EAGAIN { return nil }
            throw error
        }
        let time = buffer.timestamp
        return V4L2DequeuedBuffer(
            index: Int(buffer.index), bytesUsed: Int(buffer.bytesused), sequence: buffer.sequence,
            timestamp: Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000,
            isError: buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0)
    }

    private func ioctl<T>(_ fd: Int32, _ request: UInt, _ argument: inout T) throws(V4L2Errno) {
        // errno is read inside the closure, straight after the call, before anything else can touch it.
        let failure: V4L2Errno? = withUnsafeMutablePointer(to: &argument) {
            cs_ioctl(fd, request, $0) >= 0 ? nil : .current
        }
        if let failure { throw failure }
    }

    private static func buffer(index: Int) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(clamping: index)
        buffer.type = captureType
        buffer.memory = mmapMemory
        return buffer
    }

    /// A fixed-size, NUL-padded char array of a kernel struct (imported as a tuple of UInt8) as a String.
    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
