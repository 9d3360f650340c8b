/// The single-planar capture format: what VIDIOC_S_FMT is asked for and what the driver answers with.
public struct V4L2PixelFormat: Sendable, Equatable {
    public var fourcc: FourCC
    public var width: Int
    public var height: Int
    /// Bytes from one row to the next (rows may be padded); 0 when the driver leaves it to the application
    /// (asking) or for compressed formats.
    public var bytesPerLine: Int
    /// Bytes of a whole frame (for MJPEG, the most a frame can take).
    public var sizeImage: Int

    public init(fourcc: FourCC, width: Int, height: Int, bytesPerLine: Int = 0, sizeImage: Int = 0) {
        self.fourcc = fourcc
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.sizeImage = sizeImage
    }

    public var size: CaptureSize { CaptureSize(width: width, height: height) }
}
