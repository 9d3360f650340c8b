import VitalSnapImaging

/// How to open and run a V4L2 camera (`--device`, `--size`, and tuning that rarely needs changing).
public struct V4L2CameraOptions: Sendable {
    public static let defaultDevice = "/dev/video0"

    /// The device node, `--device`.
    public var device: String
    /// `--size WxH`; nil: `V4L2FormatChoice.defaultSize` or the nearest the camera offers.
    public var size: CaptureSize?
    /// Memory-mapped buffers to ask for (the driver may grant another number).
    public var bufferCount: Int
    /// `nextFrame()` fails with `streamFailed` when no frame arrives for this long.
    public var frameTimeout: Double
    /// How long one wait for a frame lasts before checking for `requestStop()`; the bound on how long Ctrl-C
    /// takes to be honoured.
    public var pollSliceMilliseconds: Int
    /// Hand over the newest frame: dequeue every frame already waiting and give the consumer the last one
    /// (the older ones go back to the driver and count as dropped). false: frames come strictly in order.
    public var dropsStaleFrames: Bool
    /// Unreadable frames (flagged by the driver, short, undecodable MJPEG) are skipped; this many in a row
    /// fail `nextFrame()` with `streamFailed`.
    public var maxConsecutiveBadFrames: Int
    /// For MJPEG frames.
    public var decodeOptions: DecodeOptions

    public init(
        device: String = V4L2CameraOptions.defaultDevice,
        size: CaptureSize? = nil,
        bufferCount: Int = 4,
        frameTimeout: Double = 5,
        pollSliceMilliseconds: Int = 100,
        dropsStaleFrames: Bool = true,
        maxConsecutiveBadFrames: Int = 10,
        decodeOptions: DecodeOptions = .camera
    ) {
        self.device = device
        self.size = size
        self.bufferCount = bufferCount
        self.frameTimeout = frameTimeout
        self.pollSliceMilliseconds = pollSliceMilliseconds
        self.dropsStaleFrames = dropsStaleFrames
        self.maxConsecutiveBadFrames = maxConsecutiveBadFrames
        self.decodeOptions = decodeOptions
    }
}
