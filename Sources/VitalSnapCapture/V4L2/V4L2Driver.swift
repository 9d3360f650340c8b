/// The boundary between VitalSnap and the kernel: one method per V4L2 call the camera makes, with small Swift
/// values in and out and failures as the errno. Nothing here decides anything; `V4L2Camera` does, so its
/// negotiation, buffer cycling and error mapping run the same against `LibV4L2Driver` (the real device) and
/// against a recorded session in tests.
///
/// All calls are for single-planar video capture (V4L2_BUF_TYPE_VIDEO_CAPTURE) with memory-mapped buffers
/// (V4L2_MEMORY_MMAP).
public protocol V4L2Driver: AnyObject {
    /// Opens the device node read-write and non-blocking; returns the file descriptor.
    func open(_ path: String) throws(V4L2Errno) -> Int32
    func close(_ fd: Int32) throws(V4L2Errno)
    /// VIDIOC_QUERYCAP.
    func queryCapabilities(_ fd: Int32) throws(V4L2Errno) -> V4L2Capabilities
    /// VIDIOC_ENUM_FMT for one index; EINVAL past the last format.
    func enumerateFormat(_ fd: Int32, index: Int) throws(V4L2Errno) -> V4L2FormatDescription
    /// VIDIOC_ENUM_FRAMESIZES for one index; EINVAL past the last size (or at 0 when the driver does not say).
    func enumerateFrameSize(_ fd: Int32, fourcc: FourCC, index: Int) throws(V4L2Errno) -> V4L2FrameSize
    /// VIDIOC_S_FMT (field: any). Returns what the driver chose, which may differ from what was asked.
    func setFormat(_ fd: Int32, _ format: V4L2PixelFormat) throws(V4L2Errno) -> V4L2PixelFormat
    /// VIDIOC_REQBUFS; returns how many buffers the driver granted (count 0 frees them).
    func requestBuffers(_ fd: Int32, count: Int) throws(V4L2Errno) -> Int
    /// VIDIOC_QUERYBUF.
    func queryBuffer(_ fd: Int32, index: Int) throws(V4L2Errno) -> V4L2BufferInfo
    /// mmap of one buffer, shared, read-write.
    func map(_ fd: Int32, length: Int, offset: Int) throws(V4L2Errno) -> UnsafeMutableRawBufferPointer
    /// munmap of a buffer `map` returned.
    func unmap(_ buffer: UnsafeMutableRawBufferPointer) throws(V4L2Errno)
    /// VIDIOC_QBUF: hands the buffer to the driver to be filled.
    func queueBuffer(_ fd: Int32, index: Int) throws(V4L2Errno)
    /// VIDIOC_DQBUF, waiting up to `timeoutMilliseconds` (0: do not wait) for a filled buffer; nil when none
    /// was ready in time (or a signal cut the wait short).
    func dequeueBuffer(_ fd: Int32, timeoutMilliseconds: Int) throws(V4L2Errno) -> V4L2DequeuedBuffer?
    /// VIDIOC_STREAMON.
    func streamOn(_ fd: Int32) throws(V4L2Errno)
    /// VIDIOC_STREAMOFF: stops capture and takes back every queued buffer.
    func streamOff(_ fd: Int32) throws(V4L2Errno)
}
