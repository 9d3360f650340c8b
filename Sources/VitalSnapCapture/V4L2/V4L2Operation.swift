/// One call across the `V4L2Driver` boundary, named as the kernel documentation names it (for messages, for
/// mapping errno to `CaptureError`, and for recorded sessions in tests).
public enum V4L2Operation: String, Sendable, Hashable, CaseIterable {
    case open = "open"
    case close = "close"
    case queryCapabilities = "VIDIOC_QUERYCAP"
    case enumerateFormat = "VIDIOC_ENUM_FMT"
    case enumerateFrameSize = "VIDIOC_ENUM_FRAMESIZES"
    case setFormat = "VIDIOC_S_FMT"
    case requestBuffers = "VIDIOC_REQBUFS"
    case queryBuffer = "VIDIOC_QUERYBUF"
    case map = "mmap"
    case unmap = "munmap"
    case queueBuffer = "VIDIOC_QBUF"
    case dequeueBuffer = "VIDIOC_DQBUF"
    case streamOn = "VIDIOC_STREAMON"
    case streamOff = "VIDIOC_STREAMOFF"
}
