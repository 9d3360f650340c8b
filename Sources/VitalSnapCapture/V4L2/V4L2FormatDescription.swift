/// One answer of VIDIOC_ENUM_FMT: a pixel format the device offers.
public struct V4L2FormatDescription: Sendable, Equatable {
    public var fourcc: FourCC
    /// The driver's text, e.g. "YUYV 4:2:2" or "Motion-JPEG".
    public var description: String
    /// libv4l2 converts to this format in software (V4L2_FMT_FLAG_EMULATED); the camera does not produce it.
    public var isEmulated: Bool

    public init(fourcc: FourCC, description: String = "", isEmulated: Bool = false) {
        self.fourcc = fourcc
        self.description = description
        self.isEmulated = isEmulated
    }
}
