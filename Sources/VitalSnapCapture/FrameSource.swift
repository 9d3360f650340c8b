/// Where frames come from: a V4L2 camera, or a replay of an image folder or a video file.
///
/// Pull-based: the live loop asks for the next frame when it is ready for one. A source that produces frames on
/// its own clock (a camera, a replay at a frame rate) hands over the newest frame and drops the ones the loop
/// was too slow for, so frames never queue without bound.
public protocol FrameSource: AnyObject {
    /// For messages: the device path or the replayed file.
    var name: String { get }
    /// Frames skipped so far because the consumer was behind.
    var droppedFrames: Int { get }
    /// The next frame; nil at the end of a replay. Blocks until one is due.
    func nextFrame() throws(CaptureError) -> Frame?
    /// Stops streaming and releases the device (buffers, file descriptors). Safe to call twice.
    func stop()
}
