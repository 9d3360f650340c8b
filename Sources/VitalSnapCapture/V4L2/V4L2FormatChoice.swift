/// Format negotiation, pure: which of the offered pixel formats to ask for, at which size, in which order.
///
/// Preference: GREY (already gray), then YUYV (gray is every other byte), then MJPEG (needs a JPEG decode;
/// "JPEG" is taken as another name for it). libv4l2's emulated formats are never among these. When a size was
/// asked for (`--size`), formats that offer exactly that size come first, so a USB 2 camera that does YUYV
/// only up to 640x480 but MJPEG at 1280x720 gives 1280x720 in MJPEG; without `--size` the format preference
/// alone decides and the size is the one nearest `defaultSize`.
public enum V4L2FormatChoice {
    /// Asked for when no size is given.
    public static let defaultSize = CaptureSize(width: 1280, height: 720)

    public struct Candidate: Sendable, Equatable {
        public var fourcc: FourCC
        public var size: CaptureSize
        /// The camera lists this size for this format (or lists no sizes at all).
        public var offersSize: Bool

        public init(fourcc: FourCC, size: CaptureSize, offersSize: Bool) {
            self.fourcc = fourcc
            self.size = size
            self.offersSize = offersSize
        }
    }

    /// Lower is better; nil for formats VitalSnap cannot turn into gray.
    public static func preference(of fourcc: FourCC) -> Int? {
        switch fourcc {
        case .grey: 0
        case .yuyv: 1
        case .mjpeg: 2
        case .jpeg: 3
        default: nil
        }
    }

    /// The formats to try with VIDIOC_S_FMT, best first. Throws `noUsableFormat` (listing every offered fourcc)
    /// when none is usable.
    /// - Parameter frameSizes: VIDIOC_ENUM_FRAMESIZES answers per format; a missing or empty list means the
    ///   driver does not say, and any size is assumed.
    public static func candidates(
        offered: [V4L2FormatDescription], frameSizes: [FourCC: [V4L2FrameSize]], requested: CaptureSize?,
        device: String
    ) throws(CaptureError) -> [Candidate] {
        var seen = Set<FourCC>()
        let usable = offered.filter { preference(of: $0.fourcc) != nil && seen.insert($0.fourcc).inserted }
            .sorted { preference(of: $0.fourcc)! < preference(of: $1.fourcc)! }
        guard !usable.isEmpty else {
            throw .noUsableFormat(device, offered: offered.map(\.fourcc.description))
        }
        let target = requested ?? defaultSize
        let all = usable.map { format -> Candidate in
            let (size, exact) = bestSize(frameSizes[format.fourcc] ?? [], for: target)
            return Candidate(fourcc: format.fourcc, size: size, offersSize: exact)
        }
        guard requested != nil else { return all }
        return all.filter(\.offersSize) + all.filter { !$0.offersSize }
    }

    /// The size to ask for: `target` when offered (or when nothing is listed), else the smallest offered size at
    /// least as large in both directions, else the largest offered.
    public static func bestSize(_ sizes: [V4L2FrameSize], for target: CaptureSize) -> (CaptureSize, exact: Bool) {
        if sizes.isEmpty || sizes.contains(where: { $0.contains(target) }) { return (target, true) }
        let nearest = sizes.map { nearestSize(in: $0, to: target) }
        let covering = nearest.filter { $0.width >= target.width && $0.height >= target.height }
        if let smallest = covering.min(by: { $0.area < $1.area }) { return (smallest, false) }
        return (nearest.max(by: { $0.area < $1.area })!, false)
    }

    /// Whether the driver's answer to VIDIOC_S_FMT can be used, with bytesperline and sizeimage filled in when
    /// the driver left them 0. nil for an unusable answer (another format, an empty size, rows too short).
    public static func accept(_ answer: V4L2PixelFormat) -> V4L2PixelFormat? {
        guard preference(of: answer.fourcc) != nil, answer.width > 0, answer.height > 0 else { return nil }
        var format = answer
        let rowBytes: Int
        switch answer.fourcc {
        case .grey: rowBytes = answer.width
        case .yuyv: rowBytes = answer.width * 2
        default: return format  // compressed: bytesperline means nothing
        }
        if format.bytesPerLine == 0 { format.bytesPerLine = rowBytes }
        guard format.bytesPerLine >= rowBytes else { return nil }
        if format.sizeImage == 0 { format.sizeImage = format.bytesPerLine * format.height }
        return format
    }

    private static func nearestSize(in offered: V4L2FrameSize, to target: CaptureSize) -> CaptureSize {
        switch offered {
        case .discrete(let size):
            return size
        case .stepwise(let low, let high, let step):
            func snap(_ value: Int, _ low: Int, _ high: Int, _ step: Int) -> Int {
                let step = max(step, 1)
                let clamped = min(max(value, low), high)
                let up = low + (clamped - low + step - 1) / step * step
                return up <= high ? up : low + (high - low) / step * step
            }
            return CaptureSize(
                width: snap(target.width, low.width, high.width, step.width),
                height: snap(target.height, low.height, high.height, step.height))
        }
    }
}
