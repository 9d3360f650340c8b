/// One answer of VIDIOC_ENUM_FRAMESIZES for a pixel format.
public enum V4L2FrameSize: Sendable, Equatable {
    case discrete(CaptureSize)
    /// Any size from `min` to `max` in steps of `step` (a continuous range has steps of 1).
    case stepwise(min: CaptureSize, max: CaptureSize, step: CaptureSize)

    public func contains(_ size: CaptureSize) -> Bool {
        switch self {
        case .discrete(let offered):
            return offered == size
        case .stepwise(let low, let high, let step):
            func fits(_ value: Int, _ low: Int, _ high: Int, _ step: Int) -> Bool {
                value >= low && value <= high && (value - low) % max(step, 1) == 0
            }
            return fits(size.width, low.width, high.width, step.width)
                && fits(size.height, low.height, high.height, step.height)
        }
    }
}
